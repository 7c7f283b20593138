import { useEffect, useRef, useState } from "react";

/** hh:mm:ss with hours past 24 as they are (49:12:03); never negative. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return [hours, minutes, seconds].map((part) => String(part).padStart(2, "0")).join(":");
}

/**
 * Milliseconds left until `target`, ticking every second on the server's clock: `serverNow` (sent by
 * the loader) corrects a browser whose clock is off. The first render uses the server's numbers, so
 * the page is right without JavaScript and hydrates without a mismatch.
 */
export function useCountdown(target: string, serverNow: string, onZero?: () => void): number {
  const targetMs = Date.parse(target);
  const serverMs = Date.parse(serverNow);
  const [left, setLeft] = useState(() => Math.max(0, targetMs - serverMs));
  const onZeroRef = useRef(onZero);
  onZeroRef.current = onZero;
  useEffect(() => {
    const skew = serverMs - Date.now();
    let fired = false;
    const tick = () => {
      const remaining = Math.max(0, targetMs - (Date.now() + skew));
      setLeft(remaining);
      if (remaining === 0 && !fired) {
        fired = true;
        onZeroRef.current?.();
      }
      return remaining;
    };
    if (tick() === 0) return;
    const timer = setInterval(() => {
      if (tick() === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [targetMs, serverMs]);
  return left;
}

/** A live hh:mm:ss countdown; `onZero` runs once when it reaches 00:00:00 (e.g. re-read the page's data). */
export function Countdown({
  target,
  serverNow,
  onZero,
  label,
  className,
}: {
  target: string;
  serverNow: string;
  onZero?: () => void;
  label: string;
  className?: string;
}) {
  const left = useCountdown(target, serverNow, onZero);
  return (
    <span className={["countdown", className].filter(Boolean).join(" ")}>
      <span className="visually-hidden">{label} </span>
      <time role="timer" aria-live="off" dateTime={target} className="countdown__digits" dir="ltr">
        {formatCountdown(left)}
      </time>
    </span>
  );
}
