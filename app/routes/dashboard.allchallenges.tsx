import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { categoryLabel } from "~/components/participant/category";
import { listChallenges, toggleChallengeStatus } from "~/modules/challenges/challenges.server";
import { ChallengeIdSchema } from "~/modules/challenges/schema";
import { messages } from "~/modules/messages";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardToastFailure } from "~/glue/failures.server";
import { badRequest } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";
import { SideScroll } from "~/components/ui/side-scroll";

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

/** A challenge's status in the page's language. */
const statusKeys: Record<string, string> = { active: "allChallengesPage.active", inactive: "allChallengesPage.inactive" };

export default function ChallengeStatusTable() {
  const { challenges } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const toggling = navigation.state !== "idle" ? navigation.formData?.get("id") : null;
  const { t } = useT();
  const format = useFormats();
  const statusText = (status: string) => (statusKeys[status] ? t(statusKeys[status]) : status);
  return (
    <section aria-labelledby="challenge-status-title" className="stack dash-page">
      <h1 id="challenge-status-title">{t("allChallengesPage.heading")}</h1>
      {challenges.length === 0 ? (
        <p>{t("allChallengesPage.none")}</p>
      ) : (
        <SideScroll>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("allChallengesPage.title")}</th>
                <th scope="col">{t("allChallengesPage.points")}</th>
                <th scope="col">{t("allChallengesPage.category")}</th>
                <th scope="col">{t("allChallengesPage.gate")}</th>
                <th scope="col">{t("allChallengesPage.status")}</th>
              </tr>
            </thead>
            <tbody>
              {challenges.map((challenge) => {
                const pending = toggling === String(challenge.id);
                return (
                  <tr key={challenge.id} data-challenge-id={challenge.id}>
                    <td>
                      <bdi>{challenge.title}</bdi>
                    </td>
                    <td className="num">{format.points(challenge.points)}</td>
                    <td>{categoryLabel(challenge.category, t)}</td>
                    <td>{challenge.wave ?? t("allChallengesPage.draft")}</td>
                    <td>
                      <Form method="post">
                        <input type="hidden" name="id" value={challenge.id} />
                        <button
                          type="submit"
                          className={`status-toggle status-toggle--${challenge.status}`}
                          aria-label={t(challenge.status === "active" ? "allChallengesPage.toggleToInactive" : "allChallengesPage.toggleToActive", {
                            title: challenge.title,
                            status: statusText(challenge.status),
                          })}
                          disabled={pending}
                        >
                          {pending ? "..." : statusText(challenge.status)}
                        </button>
                      </Form>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </SideScroll>
      )}
    </section>
  );
}
