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
 * `firstLineOnPhone` (the dashboard's): on a phone the message is the page's first line instead, with or
 * without JavaScript, and no toast floats over the first card (AppToaster leaves a flashed toast to a
 * first line it sees shown; docs/screens.md).
 */
export function FlashNotice({ firstLineOnPhone = false }: { firstLineOnPhone?: boolean }) {
  const toast = useFlashedToast();
  const serverMessage = useServerMessage();
  if (!toast) return null;
  const notice = (className: string, extra: Record<string, string> = {}) => (
    <div role={toast.type === "error" ? "alert" : "status"} className={`flash-notice flash-notice--${toast.type}${className}`} {...extra}>
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
  if (!firstLineOnPhone) return <noscript>{notice("")}</noscript>;
  return (
    <>
      <noscript>{notice(" flash-notice--not-phone")}</noscript>
      {notice(" flash-notice--phone", { [FIRST_LINE_ATTRIBUTE]: "" })}
    </>
  );
}

/** Marks a flashed message shown as a page's first line (on a phone): AppToaster then shows no toast for it. */
export const FIRST_LINE_ATTRIBUTE = "data-flash-first-line";

/** True when a layout of this page shows the notice itself (see FlashNoticeHandle). */
export function useLayoutShowsFlash(): boolean {
  return useMatches().some((match) => (match.handle as Partial<FlashNoticeHandle> | undefined)?.flashNotice === true);
}
