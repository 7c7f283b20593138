import { useEffect, useRef, useState } from "react";
import { serverClockOffset } from "~/components/participant/server-clock";

/** hh:mm:ss with hours past 24 as they are (49:12:03); never negative. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return [hours, minutes, seconds].map((part) => String(part).padStart(2, "0")).join(":");
}

/**
 * Milliseconds left until `target` on the server's clock: `serverNow` (sent by the loader) corrects a
 * browser whose clock is off (server-clock.ts). The display changes on each whole second left and
 * reaches 0 at the server's instant, not up to a second after it. The first render uses the server's
 * numbers, so the page is right without JavaScript and hydrates without a mismatch.
 */
export function useCountdown(target: string, serverNow: string, onZero?: () => void): number {
  const targetMs = Date.parse(target);
  const serverMs = Date.parse(serverNow);
  const [left, setLeft] = useState(() => Math.max(0, targetMs - serverMs));
  const onZeroRef = useRef(onZero);
  onZeroRef.current = onZero;
  useEffect(() => {
    const offset = serverClockOffset(serverNow);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const remaining = Math.max(0, targetMs - (Date.now() + offset));
      setLeft(remaining);
      if (remaining === 0) {
        onZeroRef.current?.();
        return;
      }
      // The next whole second left (a timer may fire a little early: then it ticks again at once).
      timer = setTimeout(tick, remaining % 1000 || 1000);
    };
    tick();
    return () => clearTimeout(timer);
    // serverNow moves with every load of the page's data: a fresh offset each time.
  }, [targetMs, serverNow]);
  return left;
}

/** hh:mm:ss left, for a screen reader with its label; `left` from useCountdown. */
export function CountdownDigits({ left, target, label, className }: { left: number; target: string; label: string; className?: string }) {
  return (
    <span className={["countdown", className].filter(Boolean).join(" ")}>
      <span className="visually-hidden">{label} </span>
      <time role="timer" aria-live="off" dateTime={target} className="countdown__digits" dir="ltr">
        {formatCountdown(left)}
      </time>
    </span>
  );
}

/** A live hh:mm:ss countdown; `onZero` runs when it reaches 00:00:00 (e.g. re-read the page's data). */
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
  return <CountdownDigits left={left} target={target} label={label} className={className} />;
}
