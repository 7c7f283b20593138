import { useEffect, useState } from "react";
import { useServerMessage } from "~/components/server-message";
import { useMatches, useRouteLoaderData } from "@remix-run/react";
import type { ClientToast } from "~/components/toaster";

/**
 * A layout that shows the flashed message itself (below its bar) declares it in its `handle`; on any
 * other page the root layout shows it at the top.
 */
export interface FlashNoticeHandle {
  flashNotice: true;
}

function useFlashedToast(): ClientToast | null {
  return useRouteLoaderData<{ toast: ClientToast | null }>("root")?.toast ?? null;
}

/**
 * The message an action flashed for the next page (a toast, app/glue/toast.server.ts), written into the
 * page for a browser that runs no JavaScript: inside <noscript>, so a browser that runs scripts never
 * shows it and the toast says it once. Success is a status, a failure an alert (docs/domain.md).
 *
 * `firstLineOnPhone` (the dashboard's, whose <main> carries FIRST_LINE_HOST): on a phone with JavaScript the
 * message is the page's first line instead of a toast over the first card (AppToaster shows no toast for it
 * there); without JavaScript the <noscript> line is the first line already (docs/screens.md).
 */
export function FlashNotice({ firstLineOnPhone = false }: { firstLineOnPhone?: boolean }) {
  const toast = useFlashedToast();
  const serverMessage = useServerMessage();
  const phone = usePhoneWidth();
  if (!toast) return null;
  const notice = (extra: Record<string, string> = {}) => (
    <div role={toast.type === "error" ? "alert" : "status"} className={`flash-notice flash-notice--${toast.type}`} {...extra}>
      {/* Some are Arabic (the dashboard's): each line takes its own direction, as the toast does. */}
      <p className="flash-notice__title" dir="auto">
        {serverMessage(toast.title)}
      </p>
      {toast.description ? (
        <p className="flash-notice__description" dir="auto">
          {serverMessage(toast.description)}
        </p>
      ) : null}
    </div>
  );
  return (
    <>
      <noscript>{notice()}</noscript>
      {firstLineOnPhone && phone ? notice({ [FIRST_LINE_ATTRIBUTE]: "" }) : null}
    </>
  );
}

/** The phone widths at which the dashboard says a flashed message as its first line. */
export const PHONE_WIDTH = "(max-width: 720px)";
/** Spread on the <main> of a layout whose FlashNotice is a first line on a phone: AppToaster then shows no toast. */
export const FIRST_LINE_HOST = { "data-flash-first-line-host": "" } as const;
/** Marks the flashed message shown as the page's first line. */
export const FIRST_LINE_ATTRIBUTE = "data-flash-first-line";

/** True on a phone's width, known once the page runs (never in the server's render: no hidden copy there). */
function usePhoneWidth(): boolean {
  const [phone, setPhone] = useState(false);
  useEffect(() => {
    const query = window.matchMedia(PHONE_WIDTH);
    const update = () => setPhone(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return phone;
}

/** True when a layout of this page shows the notice itself (see FlashNoticeHandle). */
export function useLayoutShowsFlash(): boolean {
  return useMatches().some((match) => (match.handle as Partial<FlashNoticeHandle> | undefined)?.flashNotice === true);
}
