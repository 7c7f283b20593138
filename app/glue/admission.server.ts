/**
 * Admission control for the web process (decision 013): at most `maxActive` requests are being
 * served at once, the others wait their turn in arrival order.
 *
 * Why: rendering a page is CPU work on one event loop. Past saturation, without a limit every
 * request in the building is half-done at once and the event loop serves their pieces in no
 * particular order, so some wait far longer than others (pages benchmark, 100 connections: p50
 * 360 ms, p99 2.5 s). First come, first served keeps the same throughput and bounds the tail (p99
 * 0.7 s): the wait is spent in a queue, not in the middle of a render holding a database connection.
 *
 * A request stops counting when its response is finished or its connection closes, or after
 * `maxHoldMs` at the latest: a client that reads its page slowly (or never) must not keep a slot.
 * A request whose client left while it waited is dropped from the queue without being served.
 */
import type { NextFunction, Request, Response } from "express";

export interface AdmissionOptions {
  /** Requests served at once; 0 turns admission control off. */
  maxActive: number;
  /** How long one request may hold its slot at most. */
  maxHoldMs: number;
  /** Requests that bypass the queue (long uploads would hold a slot for their whole transfer). */
  bypass?: (req: Request) => boolean;
}

export interface AdmissionQueue {
  (req: Request, res: Response, next: NextFunction): void;
  /** Requests being served, and waiting (for tests and metrics). */
  readonly stats: () => { active: number; waiting: number };
}

export function admissionQueue(options: AdmissionOptions): AdmissionQueue {
  let active = 0;
  const waiting: Array<() => void> = [];

  const admitWaiting = () => {
    while (active < options.maxActive && waiting.length > 0) waiting.shift()!();
  };

  const middleware = (req: Request, res: Response, next: NextFunction) => {
    if (options.maxActive <= 0 || options.bypass?.(req)) return next();
    let state: "waiting" | "serving" | "done" = "waiting";
    let holdTimer: NodeJS.Timeout | undefined;
    const release = () => {
      clearTimeout(holdTimer);
      const wasServing = state === "serving";
      state = "done";
      if (wasServing) {
        active--;
        admitWaiting();
      }
    };
    // Attached at once: a client that leaves while waiting is released before its turn comes.
    res.once("finish", release);
    res.once("close", release);
    waiting.push(() => {
      if (state !== "waiting") return;
      state = "serving";
      active++;
      holdTimer = setTimeout(release, options.maxHoldMs);
      holdTimer.unref();
      next();
    });
    admitWaiting();
  };
  middleware.stats = () => ({ active, waiting: waiting.length });
  return middleware;
}
