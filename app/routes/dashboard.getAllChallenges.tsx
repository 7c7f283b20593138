import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { ActionLink } from "~/components/ui/action-button";
import { deleteChallenge, listChallenges } from "~/modules/challenges/challenges.server";
import { categoryLabels, ChallengeIdSchema } from "~/modules/challenges/schema";
import { messages } from "~/modules/messages";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardToastFailure } from "~/glue/failures.server";
import { badRequest } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";
import { confirmSubmit } from "~/components/ui/confirm-submit";

const m = messages.dashboard;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return { challenges: await listChallenges() };
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requirePageActor(request);
  const parsed = ChallengeIdSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw badRequest();
  try {
    await deleteChallenge(actor, parsed.data.id);
  } catch (error) {
    return dashboardToastFailure("/dashboard/getAllChallenges", error, "challenge delete failed");
  }
  return redirectWithToast("/dashboard/getAllChallenges", { type: "success", title: m.challengeDeleted });
}

export default function AllChallengesList() {
  const { challenges } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const deleting = navigation.state === "submitting" ? navigation.formData?.get("id") : null;
  return (
    <section aria-labelledby="challenge-list-title" className="stack dash-page">
      <h1 id="challenge-list-title">All Challenges</h1>
      <p>
        <ActionLink to="/dashboard/challenges">Add a challenge</ActionLink>
      </p>
      {challenges.length === 0 ? (
        <p>No challenges yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Category</th>
                <th scope="col">Wave</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {challenges.map((challenge) => (
                <tr key={challenge.id} data-challenge-id={challenge.id}>
                  <td dir="auto">
                    {challenge.title}
                    {challenge.attachmentName ? (
                      <>
                        {" "}
                        <a href={`/dashboard/challenges/${challenge.id}/attachment`} className="muted" aria-label={`Download the attachment of ${challenge.title}`}>
                          (attachment)
                        </a>
                      </>
                    ) : null}
                  </td>
                  <td>{categoryLabels[challenge.category]}</td>
                  <td>{challenge.wave ?? "draft"}</td>
                  <td>
                    <div className="row-actions">
                      <Link to={`/dashboard/challenges?edit=${challenge.id}`} aria-label={`Edit ${challenge.title}`}>
                        edit
                      </Link>
                      {/* Always offered: a challenge with submissions is refused by the server, which says why. */}
                      <Form
                        method="post"
                        onSubmit={confirmSubmit(`Delete ${challenge.title}?`)}
                      >
                        <input type="hidden" name="id" value={challenge.id} />
                        <button type="submit" className="link-button link-button--danger" aria-label={`Delete ${challenge.title}`} disabled={deleting === String(challenge.id)}>
                          {deleting === String(challenge.id) ? "deleting..." : "delete"}
                        </button>
                      </Form>
                      {challenge.submissions > 0 ? (
                        <span className="muted">
                          ({challenge.submissions} submission{challenge.submissions === 1 ? "" : "s"})
                        </span>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
