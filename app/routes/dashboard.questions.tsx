import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { threadKindKeys, threadStatusKeys } from "~/components/participant/team-threads";
import { pageTitle } from "~/modules/i18n/i18n";
import { Trans } from "react-i18next";
import { useRevalidateOn } from "~/components/realtime/revalidate-on";
import { ActionLink } from "~/components/ui/action-button";
import { ListPageLinks } from "~/components/ui/page-links";
import { messages } from "~/modules/messages";
import { ThreadFilterSchema } from "~/modules/requests/schema";
import { claimThread, questionChallenges, threadQueuePage, type ThreadQueuePage } from "~/modules/requests/threads.server";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import { parseRowId } from "~/modules/ids";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardToastFailure } from "~/glue/failures.server";
import { badRequest } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";
import { SideScroll } from "~/components/ui/side-scroll";

const m = messages.threads;

export const handle: DashboardHandle = { loadFailed: messages.dashboard.loadFailed };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "questionsPage.title") }];

/** The organisers' queue (admins and mentors): teams' questions, mentor calls and needs, oldest first, a page at a time. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const filter = ThreadFilterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [queue, challenges, timeZone] = await Promise.all([
    threadQueuePage({ kind: filter.kind, gate: filter.gate, challengeId: filter.challenge, status: filter.status }, filter.page),
    // Only challenges teams asked about: a mentor learns nothing of challenges not yet open.
    questionChallenges(),
    getEventTimeZone(),
  ]);
  return {
    me: user.id,
    filter,
    pages: queue.page,
    threads: queue.rows.map((thread) => ({ ...thread, createdAt: thread.createdAt.toISOString(), updatedAt: thread.updatedAt.toISOString() })),
    challenges: challenges.map((challenge) => ({ id: challenge.id, title: challenge.title, wave: challenge.wave })),
    timeZone,
  };
}

/** Claims a thread from the list, then opens it. */
export async function action({ request }: ActionFunctionArgs) {
  const actor = await requirePageActor(request);
  const formData = await request.formData();
  const raw = formData.get("id");
  const id = typeof raw === "string" ? parseRowId(raw) : null;
  if (formData.get("intent") !== "claim" || !id) throw badRequest();
  try {
    await claimThread(actor, id);
  } catch (error) {
    return dashboardToastFailure(`/dashboard/questions${new URL(request.url).search}`, error, "thread claim failed");
  }
  return redirectWithToast(`/dashboard/questions/${id}`, { type: "success", title: m.claimed });
}

export default function Questions() {
  const { me, filter, threads, challenges, timeZone, pages } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  // Another organiser's claim or a team's message re-reads the queue (at most every 2 s).
  useRevalidateOn("thread:changed");
  const { t } = useT();
  const format = useFormats();
  const claiming = navigation.state === "submitting" ? navigation.formData?.get("id") : null;
  return (
    <section aria-labelledby="questions-title" className="stack dash-page">
      <h1 id="questions-title">{t("questionsPage.heading")}</h1>
      <p role="status">{t("questionsPage.waitingCount", { count: pages.waiting })}</p>
      <Form method="get" className="card dash-filters" aria-label={t("questionsPage.filterLabel")}>
        <label>
          {t("questionsPage.kind")}{" "}
          <select name="kind" defaultValue={filter.kind ?? ""}>
            <option value="">{t("questionsPage.all")}</option>
            {(Object.keys(threadKindKeys) as Array<keyof typeof threadKindKeys>).map((value) => (
              <option key={value} value={value}>
                {t(threadKindKeys[value])}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("questionsPage.gate")}{" "}
          <select name="gate" defaultValue={filter.gate ?? ""}>
            <option value="">{t("questionsPage.all")}</option>
            {[1, 2, 3, 4, 5].map((gate) => (
              <option key={gate} value={gate}>
                {t("questionsPage.gateNumber", { gate })}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("questionsPage.challenge")}{" "}
          <select name="challenge" defaultValue={filter.challenge ?? ""}>
            <option value="">{t("questionsPage.all")}</option>
            {challenges.map((challenge) => (
              <option key={challenge.id} value={challenge.id}>
                {challenge.title}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("questionsPage.status")}{" "}
          <select name="status" defaultValue={filter.status ?? "waiting"}>
            <option value="waiting">{t("questionsPage.waiting")}</option>
            {(Object.keys(threadStatusKeys) as Array<keyof typeof threadStatusKeys>).map((value) => (
              <option key={value} value={value}>
                {t(threadStatusKeys[value])}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="action-button action-button--subtle">
          {t("questionsPage.filter")}
        </button>
      </Form>
      {threads.length === 0 ? (
        <p>{t("questionsPage.empty")}</p>
      ) : (
        <SideScroll>
          <table className="table thread-table">
            <thead>
              <tr>
                <th scope="col">{t("questionsPage.column.asked")}</th>
                <th scope="col">{t("questionsPage.column.kind")}</th>
                <th scope="col">{t("questionsPage.column.team")}</th>
                <th scope="col">{t("questionsPage.column.challenge")}</th>
                <th scope="col">{t("questionsPage.column.message")}</th>
                <th scope="col">{t("questionsPage.column.status")}</th>
                <th scope="col">{t("questionsPage.column.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {threads.map((thread) => (
                <tr key={thread.id} data-thread-id={thread.id}>
                  <td className="nowrap" data-label={t("questionsPage.column.asked")}>
                    <time dateTime={thread.createdAt}>{format.dayTime(thread.createdAt, timeZone)}</time>
                  </td>
                  <td data-label={t("questionsPage.column.kind")}>{t(threadKindKeys[thread.kind])}</td>
                  <td data-label={t("questionsPage.column.team")}>
                    {thread.team ? <bdi>{thread.team}</bdi> : "—"}
                  </td>
                  <td data-label={t("questionsPage.column.challenge")}>
                    {thread.challenge ? (
                      <span>
                        <bdi>{thread.challenge}</bdi>
                        {thread.gate ? t("questionsPage.inGate", { gate: thread.gate }) : ""}
                      </span>
                    ) : (
                      "—"
                    )}
                  </td>
                  {/* One child a cell: on a phone each cell is a label and its value side by side. */}
                  <td dir="auto" className="submission-text" data-label={t("questionsPage.column.message")}>
                    <span>
                      {thread.message.length > 200 ? `${thread.message.slice(0, 197)}...` : thread.message}
                      {thread.replies > 0 ? <span className="muted">{t("questionsPage.moreReplies", { count: thread.replies })}</span> : null}
                    </span>
                  </td>
                  <td data-label={t("questionsPage.column.status")} className="thread-status">
                    <span>
                      {t(threadStatusKeys[thread.status])}
                      {thread.claimedByName ? (
                        <span className="muted">
                          {thread.claimedBy === me ? (
                            t("questionsPage.byYou")
                          ) : (
                            <Trans i18nKey="questionsPage.byName" values={{ name: thread.claimedByName }} components={{ name: <bdi /> }} />
                          )}
                        </span>
                      ) : null}
                    </span>
                  </td>
                  <td data-label={t("questionsPage.column.actions")}>
                    <div className="row-actions">
                      {thread.status === "open" ? (
                        <Form method="post">
                          <input type="hidden" name="id" value={thread.id} />
                          <button type="submit" name="intent" value="claim" className="action-button" disabled={claiming === String(thread.id)}>
                            {t("questionsPage.claim")}
                          </button>
                        </Form>
                      ) : null}
                      <ActionLink to={`/dashboard/questions/${thread.id}`} variant="subtle">
                        {t("questionsPage.open")}
                      </ActionLink>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </SideScroll>
      )}
      {pages.pages > 1 ? <QueuePages pages={pages} filter={filter} /> : null}
    </section>
  );
}

/** The queue's pages (`?page=`, the filters kept): plain links, so they work without JavaScript. */
function QueuePages({ pages, filter }: { pages: ThreadQueuePage; filter: Record<string, string | number | undefined> }) {
  const { t } = useT();
  return <ListPageLinks pages={pages} query={filter} label={t("questionsPage.pagesLabel")} range={(figures) => t("questionsPage.range", figures)} />;
}
