import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { ServerEventName } from "~/modules/realtime/events";
import { useSocketEvent } from "./socket-provider";

/**
 * Runs `act` when `event` arrives, at most once per `intervalMs`: a burst of events (a gate opening, many
 * teams submitting) costs one run at its start and one at its end, not one each.
 */
export function useThrottledEvent(event: ServerEventName, act: () => void, intervalMs = 2000, enabled = true): void {
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(act);
  useEffect(() => {
    latest.current = act;
  });
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useSocketEvent(event, () => {
    if (!enabled || timer.current) return;
    const wait = Math.max(0, last.current + intervalMs - Date.now());
    timer.current = setTimeout(() => {
      timer.current = null;
      last.current = Date.now();
      latest.current();
    }, wait);
  });
}

/** Re-reads the page's data when `event` arrives, at most once per `intervalMs` (see useThrottledEvent). */
export function useRevalidateOn(event: ServerEventName, intervalMs = 2000): void {
  const { revalidate } = useRevalidator();
  useThrottledEvent(event, revalidate, intervalMs);
}
