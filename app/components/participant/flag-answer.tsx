import { useFetcher } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useEffect, useState } from "react";
import { useT } from "~/components/i18n";
import { useFormats } from "~/components/realtime/format";
import { useServerMessage } from "~/components/server-message";
import { ActionButton } from "~/components/ui/action-button";
import { Message } from "~/components/ui/message";
import type { FlagPageState } from "~/modules/participant/board.server";

/** The verdict the page's action answers a flag with (app/glue/flag-answer.server.ts's FlagReply). */
interface FlagReply {
  verdict: "correct" | "incorrect" | "refused";
  message: string;
  answer: string;
}

/** Counts down the seconds of a wait from when the page learnt of it (0 before hydration: the form stays usable without JavaScript). */
function useWaitLeft(state: FlagPageState | null): number {
  const [until, setUntil] = useState<number | null>(null);
  const [now, setNow] = useState<number | null>(null);
  // Each reading of the team's state (a new object) starts the count again from its seconds.
  useEffect(() => {
    setNow(Date.now());
    setUntil(state && state.waitSeconds > 0 ? Date.now() + state.waitSeconds * 1000 : null);
  }, [state]);
  useEffect(() => {
    if (until === null) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= until) setUntil(null);
    }, 250);
    return () => clearInterval(timer);
  }, [until]);
  return until !== null && now !== null ? Math.max(0, Math.ceil((until - now) / 1000)) : 0;
}

/**
 * A flag challenge's answer box (docs/domain.md "Flag challenges"): a plain post to the page's own action
 * that works without JavaScript (the page comes back with the verdict, what was typed kept), sent with a
 * fetcher once hydrated (no reload, the focus stays, the verdict read out by the live region). Solved, the
 * form gives way to when; a wait counts down and gives the button back.
 */
export function FlagAnswerCard({ state, timeZone, disabledReason }: { state: FlagPageState | null; timeZone: string; disabledReason: string | null }) {
  const { t } = useT();
  const format = useFormats();
  const serverMessage = useServerMessage();
  const fetcher = useFetcher<{ flag?: FlagReply }>();
  const posted = useActionReply<{ flag?: FlagReply }>();
  const reply = fetcher.data?.flag ?? posted?.flag;
  const waitLeft = useWaitLeft(state);
  const busy = fetcher.state !== "idle";

  return (
    <section className="card stack flag-answer" aria-labelledby="flag-answer-heading">
      <h2 id="flag-answer-heading">{t("flag.heading")}</h2>
      <div aria-live="polite" aria-atomic="true" className="flag-answer__verdict">
        {reply ? (
          <Message tone={reply.verdict === "correct" ? "correct" : "error"} id="flag-verdict">
            {serverMessage(reply.message)}
          </Message>
        ) : null}
      </div>
      {state?.solvedAt ? (
        <p className="message message--correct flag-answer__solved">
          <strong>{t("flag.solved")}</strong> {t("flag.solvedAt", { when: format.dayTime(state.solvedAt, timeZone) })}
        </p>
      ) : disabledReason ? (
        <p className="message message--error">{disabledReason}</p>
      ) : state === null ? null : state.attemptsLeft === 0 ? (
        <p className="message message--error">{t("flag.noAttemptsLeft")}</p>
      ) : (
        <fetcher.Form method="post" className="form" aria-describedby={reply && reply.verdict !== "correct" ? "flag-verdict" : undefined}>
          <input type="hidden" name="intent" value="flag" />
          <div className="field">
            <label className="field__label" htmlFor="flag-answer">
              {t("flag.label")}
            </label>
            <input
              id="flag-answer"
              name="answer"
              type="text"
              className="field__input"
              maxLength={1024}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              dir="ltr"
              required
              defaultValue={reply && reply.verdict !== "correct" ? reply.answer : ""}
              aria-invalid={reply && reply.verdict !== "correct" ? true : undefined}
            />
          </div>
          {state.maxAttempts !== null && state.attemptsLeft !== null ? <p className="muted">{t("flag.attemptsLeft", { count: state.attemptsLeft })}</p> : null}
          {waitLeft > 0 ? (
            <p className="muted" role="timer">
              {t("flag.waitCountdown", { count: waitLeft })}
            </p>
          ) : null}
          <ActionButton type="submit" disabled={busy || waitLeft > 0}>
            {busy ? t("flag.checking") : t("flag.submit")}
          </ActionButton>
        </fetcher.Form>
      )}
    </section>
  );
}
