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
 */
export function FlashNotice() {
  const toast = useFlashedToast();
  const serverMessage = useServerMessage();
  if (!toast) return null;
  return (
    <noscript>
      <div role={toast.type === "error" ? "alert" : "status"} className={`flash-notice flash-notice--${toast.type}`}>
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
    </noscript>
  );
}

/** True when a layout of this page shows the notice itself (see FlashNoticeHandle). */
export function useLayoutShowsFlash(): boolean {
  return useMatches().some((match) => (match.handle as Partial<FlashNoticeHandle> | undefined)?.flashNotice === true);
}
