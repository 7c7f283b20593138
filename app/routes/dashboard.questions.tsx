import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import type { DashboardHandle } from "~/components/dashboard/error-boundary";
import { formatDayTime } from "~/components/realtime/format";
import { useRevalidateOn } from "~/components/realtime/revalidate-on";
import { ActionLink } from "~/components/ui/action-button";
import { messages } from "~/modules/messages";
import { ThreadFilterSchema } from "~/modules/requests/schema";
import { claimThread, listThreads, QUEUE_LIMIT, questionChallenges } from "~/modules/requests/threads.server";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import { parseRowId } from "~/modules/ids";
import styles from "~/styles/dashboard.css";
import { requirePageActor } from "~/glue/actor.server";
import { requirePage } from "~/glue/auth.server";
import { dashboardToastFailure } from "~/glue/failures.server";
import { badRequest } from "~/glue/responses.server";
import { redirectWithToast } from "~/glue/toast.server";

const m = messages.threads;

export const handle: DashboardHandle = { loadFailed: messages.dashboard.loadFailed };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: "Questions · Gatekeeper Dashboard" }];

/** The organisers' queue (admins and mentors): teams' questions, mentor calls and needs, oldest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  const filter = ThreadFilterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [threads, challenges, timeZone] = await Promise.all([
    listThreads({ kind: filter.kind, gate: filter.gate, challengeId: filter.challenge, status: filter.status }),
    // Only challenges teams asked about: a mentor learns nothing of challenges not yet open.
    questionChallenges(),
    getEventTimeZone(),
  ]);
  return {
    me: user.id,
    filter,
    more: threads.length >= QUEUE_LIMIT,
    threads: threads.map((thread) => ({ ...thread, createdAt: thread.createdAt.toISOString(), updatedAt: thread.updatedAt.toISOString() })),
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
  const { me, filter, threads, challenges, timeZone, more } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  // Another organiser's claim or a team's message re-reads the queue (at most every 2 s).
  useRevalidateOn("thread:changed");
  const claiming = navigation.state === "submitting" ? navigation.formData?.get("id") : null;
  return (
    <section aria-labelledby="questions-title" className="stack dash-page">
      <h1 id="questions-title">Questions and requests</h1>
      <Form method="get" className="card dash-filters" aria-label="Filter the threads">
        <label>
          Kind{" "}
          <select name="kind" defaultValue={filter.kind ?? ""}>
            <option value="">All</option>
            {(Object.entries(m.kindLabels) as Array<[keyof typeof m.kindLabels, string]>).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Gate{" "}
          <select name="gate" defaultValue={filter.gate ?? ""}>
            <option value="">All</option>
            {[1, 2, 3, 4, 5].map((gate) => (
              <option key={gate} value={gate}>
                Gate {gate}
              </option>
            ))}
          </select>
        </label>
        <label>
          Challenge{" "}
          <select name="challenge" defaultValue={filter.challenge ?? ""}>
            <option value="">All</option>
            {challenges.map((challenge) => (
              <option key={challenge.id} value={challenge.id}>
                {challenge.title}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status{" "}
          <select name="status" defaultValue={filter.status ?? "waiting"}>
            <option value="waiting">Waiting (open or claimed)</option>
            {(Object.entries(m.statusLabels) as Array<[keyof typeof m.statusLabels, string]>).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="action-button action-button--subtle">
          Filter
        </button>
      </Form>
      {more ? <p role="status">The oldest {threads.length} are listed: filter by kind, gate or challenge to reach the others.</p> : null}
      {threads.length === 0 ? (
        <p>Nothing waiting here.</p>
      ) : (
        <div className="table-wrap">
          <table className="table thread-table">
            <thead>
              <tr>
                <th scope="col">Asked</th>
                <th scope="col">Kind</th>
                <th scope="col">Team</th>
                <th scope="col">Challenge</th>
                <th scope="col">Message</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {threads.map((thread) => (
                <tr key={thread.id} data-thread-id={thread.id}>
                  <td className="nowrap" data-label="Asked">
                    <time dateTime={thread.createdAt}>{formatDayTime(thread.createdAt, timeZone)}</time>
                  </td>
                  <td data-label="Kind">{m.kindLabels[thread.kind]}</td>
                  <td dir="auto" data-label="Team">
                    {thread.team ?? "—"}
                  </td>
                  <td dir="auto" data-label="Challenge">
                    {thread.challenge ? `${thread.challenge}${thread.gate ? ` (gate ${thread.gate})` : ""}` : "—"}
                  </td>
                  {/* One child a cell: on a phone each cell is a label and its value side by side. */}
                  <td dir="auto" className="submission-text" data-label="Message">
                    <span>
                      {thread.message.length > 200 ? `${thread.message.slice(0, 197)}...` : thread.message}
                      {thread.replies > 0 ? <span className="muted"> · {thread.replies} more</span> : null}
                    </span>
                  </td>
                  <td data-label="Status" className="thread-status">
                    <span>
                      {m.statusLabels[thread.status]}
                      {thread.claimedByName ? <span className="muted"> by {thread.claimedBy === me ? "you" : thread.claimedByName}</span> : null}
                    </span>
                  </td>
                  <td data-label="Actions">
                    <div className="row-actions">
                      {thread.status === "open" ? (
                        <Form method="post">
                          <input type="hidden" name="id" value={thread.id} />
                          <button type="submit" name="intent" value="claim" className="action-button" disabled={claiming === String(thread.id)}>
                            Claim
                          </button>
                        </Form>
                      ) : null}
                      <ActionLink to={`/dashboard/questions/${thread.id}`} variant="subtle">
                        Open
                      </ActionLink>
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
