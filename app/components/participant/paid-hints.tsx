import { useFetcher } from "@remix-run/react";
import { useActionReply } from "~/components/action-reply";
import { useT } from "~/components/i18n";
import { useFormats } from "~/components/realtime/format";
import { useServerMessage } from "~/components/server-message";
import { ActionButton } from "~/components/ui/action-button";
import { Message } from "~/components/ui/message";
import type { TeamHint } from "~/modules/flags/hints.server";

type HintReply = { hint?: { ok: boolean; message: string } };

/**
 * A challenge's hints that cost points (docs/domain.md "Hints that cost points"): each locked one a button
 * that says what it costs, a plain post to the page's action (`intent=hint`) without JavaScript, a fetcher
 * with it; an unlocked one its text. A locked hint's text is never in the page.
 */
export function PaidHints({ hints, canUnlock }: { hints: readonly TeamHint[]; canUnlock: boolean }) {
  const { t } = useT();
  const format = useFormats();
  const serverMessage = useServerMessage();
  const fetcher = useFetcher<HintReply>();
  const posted = useActionReply<HintReply>();
  const reply = fetcher.data?.hint ?? posted?.hint;
  if (hints.length === 0) return null;
  return (
    <div className="stack paid-hints">
      <h2 id="paid-hints-heading">{t("hints.heading")}</h2>
      <div aria-live="polite" aria-atomic="true">
        {reply ? <Message tone={reply.ok ? "correct" : "error"}>{serverMessage(reply.message)}</Message> : null}
      </div>
      <ol className="paid-hints__list" aria-labelledby="paid-hints-heading">
        {hints.map((hint) => (
          <li key={hint.id} className="paid-hints__item">
            {hint.unlocked ? (
              <p className="submission-page__prose" dir="auto">
                {hint.text}
              </p>
            ) : canUnlock ? (
              <fetcher.Form method="post">
                <input type="hidden" name="intent" value="hint" />
                <input type="hidden" name="hintId" value={hint.id} />
                <ActionButton type="submit" variant="subtle" disabled={fetcher.state !== "idle"}>
                  {hint.cost > 0 ? t("hints.unlockFor", { points: format.points(hint.cost) }) : t("hints.unlockFree")}
                </ActionButton>
              </fetcher.Form>
            ) : (
              <p className="muted">{hint.cost > 0 ? t("hints.lockedCost", { points: format.points(hint.cost) }) : t("hints.locked")}</p>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
