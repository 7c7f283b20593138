import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";

export interface ThreadMessageView {
  key: string | number;
  fromTeam: boolean;
  /** Who wrote it, as this reader may see it. */
  who: string;
  body: string;
  createdAt: string;
}

/** A thread's messages in order, the team's and the organisers' told apart (plain text, as written). */
export function ThreadMessages({ messages, timeZone }: { messages: ThreadMessageView[]; timeZone: string }) {
  const { t } = useT();
  const format = useFormats();
  return (
    <ol className="thread-messages" aria-label={t("thread.messages")}>
      {messages.map((message) => (
        <li key={message.key} className={`thread-message ${message.fromTeam ? "thread-message--team" : "thread-message--staff"}`}>
          <p className="thread-message__who">
            <bdi>{message.who}</bdi> · <time dateTime={message.createdAt}>{format.dayTime(message.createdAt, timeZone)}</time>
          </p>
          <p dir="auto" className="thread-message__body">
            {message.body}
          </p>
        </li>
      ))}
    </ol>
  );
}
