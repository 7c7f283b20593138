import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { formatPoints } from "~/components/realtime/format";
import { listChallenges, toggleChallengeStatus } from "~/modules/challenges/challenges.server";
import { categoryLabels, ChallengeIdSchema } from "~/modules/challenges/schema";
import { messages } from "~/modules/messages";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardToastFailure } from "~/glue/failures.server";
import { badRequest } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";

const m = messages.dashboard;

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return { challenges: await listChallenges() };
}

/** Clicking the status toggles it; the list is then re-read (the loader revalidates). */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requirePageActor(request);
  const parsed = ChallengeIdSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw badRequest();
  try {
    const row = await toggleChallengeStatus(actor, parsed.data.id);
    return redirectWithToast("/dashboard/allchallenges", { type: "success", title: m.statusChanged(row.title, row.status) });
  } catch (error) {
    return dashboardToastFailure("/dashboard/allchallenges", error, "challenge status change failed");
  }
}

export default function ChallengeStatusTable() {
  const { challenges } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const toggling = navigation.state !== "idle" ? navigation.formData?.get("id") : null;
  return (
    <section aria-labelledby="challenge-status-title" className="stack dash-page">
      <h1 id="challenge-status-title">All challanges</h1>
      {challenges.length === 0 ? (
        <p>No challenges yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">title</th>
                <th scope="col">Points</th>
                <th scope="col">Category</th>
                <th scope="col">Gate</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {challenges.map((challenge) => {
                const pending = toggling === String(challenge.id);
                return (
                  <tr key={challenge.id} data-challenge-id={challenge.id}>
                    <td dir="auto">{challenge.title}</td>
                    <td className="num">{formatPoints(challenge.points)}</td>
                    <td>{categoryLabels[challenge.category]}</td>
                    <td>{challenge.wave ?? "draft"}</td>
                    <td>
                      <Form method="post">
                        <input type="hidden" name="id" value={challenge.id} />
                        <button
                          type="submit"
                          className={`status-toggle status-toggle--${challenge.status}`}
                          aria-label={`${challenge.title}: ${challenge.status}. Click to make it ${challenge.status === "active" ? "inactive" : "active"}`}
                          disabled={pending}
                        >
                          {pending ? "..." : challenge.status}
                        </button>
                      </Form>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
