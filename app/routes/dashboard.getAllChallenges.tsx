import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useT } from "~/components/i18n";
import { categoryLabel } from "~/components/participant/category";
import { ActionLink } from "~/components/ui/action-button";
import { deleteChallenge, listChallenges } from "~/modules/challenges/challenges.server";
import { ChallengeIdSchema } from "~/modules/challenges/schema";
import { messages } from "~/modules/messages";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardToastFailure } from "~/glue/failures.server";
import { badRequest } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";
import { confirmSubmit } from "~/components/ui/confirm-submit";
import { SideScroll } from "~/components/ui/side-scroll";

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
  const { t } = useT();
  return (
    <section aria-labelledby="challenge-list-title" className="stack dash-page">
      <h1 id="challenge-list-title">{t("allChallengesPage.listHeading")}</h1>
      <p>
        <ActionLink to="/dashboard/challenges">{t("allChallengesPage.add")}</ActionLink>
      </p>
      {challenges.length === 0 ? (
        <p>{t("allChallengesPage.none")}</p>
      ) : (
        <SideScroll>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("allChallengesPage.titleColumn")}</th>
                <th scope="col">{t("allChallengesPage.category")}</th>
                <th scope="col">{t("allChallengesPage.wave")}</th>
                <th scope="col">{t("allChallengesPage.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {challenges.map((challenge) => (
                <tr key={challenge.id} data-challenge-id={challenge.id}>
                  <td>
                    <bdi>{challenge.title}</bdi>
                    {challenge.checking === "flag" ? (
                      <>
                        {" "}
                        <span className="checking-badge" title={t("allChallengesPage.checking")}>
                          {t("allChallengesPage.flagBadge")}
                        </span>
                      </>
                    ) : null}
                    {challenge.attachmentName ? (
                      <>
                        {" "}
                        <a href={`/dashboard/challenges/${challenge.id}/attachment`} className="muted" aria-label={t("allChallengesPage.attachmentLabel", { title: challenge.title })}>
                          {t("allChallengesPage.attachment")}
                        </a>
                      </>
                    ) : null}
                  </td>
                  <td>{categoryLabel(challenge.category, t)}</td>
                  <td>{challenge.wave ?? t("allChallengesPage.draft")}</td>
                  <td>
                    <div className="row-actions">
                      <Link to={`/dashboard/challenges?edit=${challenge.id}`} aria-label={t("allChallengesPage.editLabel", { title: challenge.title })}>
                        {t("allChallengesPage.edit")}
                      </Link>
                      {/* Always offered: a challenge with submissions is refused by the server, which says why. */}
                      <Form
                        method="post"
                        onSubmit={confirmSubmit(t("allChallengesPage.deleteConfirm", { title: challenge.title }))}
                      >
                        <input type="hidden" name="id" value={challenge.id} />
                        <button
                          type="submit"
                          className="link-button link-button--danger"
                          aria-label={t("allChallengesPage.deleteLabel", { title: challenge.title })}
                          disabled={deleting === String(challenge.id)}
                        >
                          {deleting === String(challenge.id) ? t("allChallengesPage.deleting") : t("allChallengesPage.delete")}
                        </button>
                      </Form>
                      {challenge.submissions > 0 ? (
                        <span className="muted">
                          {t("allChallengesPage.submissions", { count: challenge.submissions })}
                        </span>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </SideScroll>
      )}
    </section>
  );
}
