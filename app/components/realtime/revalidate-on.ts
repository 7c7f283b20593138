import { useNavigation, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ServerEventName } from "~/modules/realtime/events";
import { useSocketEvent } from "./socket-provider";

/**
 * `act`, throttled: the function returned runs it at most once per `intervalMs` (now if it has not run for
 * that long, else once when the interval is over), so a burst of calls costs one run at its start and one
 * at its end, not one each.
 */
export function useThrottled(act: () => void, intervalMs = 2000): () => void {
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
  return useCallback(() => {
    if (timer.current) return;
    const wait = Math.max(0, last.current + intervalMs - Date.now());
    timer.current = setTimeout(() => {
      timer.current = null;
      last.current = Date.now();
      latest.current();
    }, wait);
  }, [intervalMs]);
}

/**
 * Runs `act` when `event` arrives, at most once per `intervalMs` (a gate opening, many teams submitting:
 * `useThrottled`).
 */
export function useThrottledEvent(event: ServerEventName, act: () => void, intervalMs = 2000, enabled = true): void {
  const run = useThrottled(act, intervalMs);
  useSocketEvent(event, () => {
    if (enabled) run();
  });
}

/**
 * Re-reads the page's data, but never in the middle of a navigation (a form's post and the page it leads
 * to): the re-read would abort that page's loads, and what they carry only once, the toast flashed by the
 * post (app/glue/toast.server.ts), would be lost. The re-read waits for the navigation to end instead; the
 * event a user's own post raises (a team's own mentor call) arrives exactly then.
 */
export function useIdleRevalidate(): () => void {
  const { revalidate } = useRevalidator();
  const busy = useNavigation().state !== "idle";
  const busyNow = useRef(busy);
  busyNow.current = busy;
  const [waiting, setWaiting] = useState(false);
  useEffect(() => {
    if (!waiting || busy) return;
    setWaiting(false);
    revalidate();
  }, [waiting, busy, revalidate]);
  return useCallback(() => (busyNow.current ? setWaiting(true) : revalidate()), [revalidate]);
}

/** Re-reads the page's data when `event` arrives, at most once per `intervalMs` (see useThrottledEvent). */
export function useRevalidateOn(event: ServerEventName, intervalMs = 2000): void {
  useThrottledEvent(event, useIdleRevalidate(), intervalMs);
}
