import { Link } from "@remix-run/react";
import { formatDayTime } from "~/components/realtime/format";
import { messages } from "~/modules/messages";

const m = messages.threads;

export interface TeamThreadRow {
  id: number;
  kind: keyof typeof m.kindLabels;
  status: keyof typeof m.statusLabels;
  message: string;
  challenge: string | null;
  updatedAt: string;
}

/** The team's questions and requests with their status (live: the page re-reads on each change). */
export function TeamThreads({ threads, timeZone }: { threads: TeamThreadRow[]; timeZone: string }) {
  if (threads.length === 0) return null;
  return (
    <section className="card team-threads" aria-labelledby="team-threads-heading">
      <h2 id="team-threads-heading">Your questions and requests</h2>
      <ul className="team-threads__list">
        {threads.map((thread) => (
          <li key={thread.id} data-thread-id={thread.id}>
            <Link to={`/threads/${thread.id}`}>
              <span className={`thread-badge thread-badge--${thread.status}`}>{m.statusLabels[thread.status]}</span>{" "}
              <span>{m.kindLabels[thread.kind]}</span>
              {thread.challenge ? <span dir="auto"> · {thread.challenge}</span> : null}
            </Link>
            <p dir="auto" className="team-threads__message">
              {thread.message.length > 140 ? `${thread.message.slice(0, 137)}...` : thread.message}
            </p>
            <p className="muted">
              <time dateTime={thread.updatedAt}>{formatDayTime(thread.updatedAt, timeZone)}</time>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
