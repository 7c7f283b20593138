import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { ServerEventName } from "~/modules/realtime/events";
import { useSocketEvent } from "./socket-provider";

/**
 * Re-reads the page's data when `event` arrives, at most once per `intervalMs`: a burst of events (a
 * gate opening, many teams submitting) costs one reload at its start and one at its end, not one each.
 */
export function useRevalidateOn(event: ServerEventName, intervalMs = 2000): void {
  const { revalidate } = useRevalidator();
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useSocketEvent(event, () => {
    if (timer.current) return;
    const wait = Math.max(0, last.current + intervalMs - Date.now());
    timer.current = setTimeout(() => {
      timer.current = null;
      last.current = Date.now();
      revalidate();
    }, wait);
  });
}
