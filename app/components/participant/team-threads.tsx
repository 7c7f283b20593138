import { useT } from "~/components/i18n";
import { useFormats } from "~/components/realtime/format";
import { AppLink } from "~/components/ui/app-link";

/** A thread's status and kind, named in the page's language. */
export const threadStatusKeys = {
  open: "threads.status.open",
  claimed: "threads.status.claimed",
  answered: "threads.status.answered",
  closed: "threads.status.closed",
} as const;
export const threadKindKeys = { mentor: "threads.kind.mentor", needs: "threads.kind.needs", question: "threads.kind.question" } as const;

export interface TeamThreadRow {
  id: number;
  kind: keyof typeof threadKindKeys;
  status: keyof typeof threadStatusKeys;
  message: string;
  challenge: string | null;
  updatedAt: string;
}

/** The team's questions and requests with their status (live: the page re-reads on each change). */
export function TeamThreads({ threads, timeZone }: { threads: TeamThreadRow[]; timeZone: string }) {
  const { t } = useT();
  const format = useFormats();
  if (threads.length === 0) return null;
  return (
    <section className="card team-threads" aria-labelledby="team-threads-heading">
      <h2 id="team-threads-heading">{t("threads.yours")}</h2>
      <ul className="team-threads__list">
        {threads.map((thread) => (
          <li key={thread.id} data-thread-id={thread.id}>
            <AppLink to={`/threads/${thread.id}`}>
              <span className={`thread-badge thread-badge--${thread.status}`}>{t(threadStatusKeys[thread.status])}</span>{" "}
              <span>{t(threadKindKeys[thread.kind])}</span>
              {thread.challenge ? (
                <>
                  {" · "}
                  <bdi>{thread.challenge}</bdi>
                </>
              ) : null}
            </AppLink>
            <p dir="auto" className="team-threads__message">
              {thread.message.length > 140 ? `${thread.message.slice(0, 137)}...` : thread.message}
            </p>
            <p className="muted">
              <time dateTime={thread.updatedAt}>{format.dayTime(thread.updatedAt, timeZone)}</time>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
