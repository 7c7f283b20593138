import { isRouteErrorResponse } from "@remix-run/react";

/**
 * How a page's data is read again in the browser (docs/decisions/008-participant-screens.md, "Data
 * fetching"): the original platform's fetching library retried a failed read 3 times; a page whose re-read
 * must not fall to an error page (/status) does too, through `withRetries` in its `clientLoader`.
 */
export const REFETCH_RETRIES = 3;

/**
 * About 0.3 s, 0.6 s, 1.2 s (about 2 s in all before the page says the read failed), each spread by up to
 * half its length at random: after a freeze every browser re-reads at once, and when that read fails they
 * must not all retry in the same instant, while the service struggles.
 */
export const refetchDelayMs = (retry: number, random: () => number = Math.random) => Math.round(300 * 2 ** retry * (0.75 + random() / 2));

/**
 * The server's answer rather than a failure to read: a redirect (signed out: to the login page) or a 4xx
 * (forbidden, not found). Retrying cannot change it, and the page must follow it.
 */
export function isServerAnswer(error: unknown): boolean {
  if (error instanceof Response) return true;
  if (isRouteErrorResponse(error)) return error.status < 500;
  return false;
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}

/**
 * Runs `read`, and again up to `retries` times while it fails (a 5xx, a network error, an answer that could
 * not be decoded), waiting `delayMs(n)` before the n-th retry (n from 0). The server's answers
 * (`isServerAnswer`) and an abort (the user went elsewhere) end it at once. Throws the last failure.
 */
export async function withRetries<T>(
  read: () => Promise<T>,
  { retries = REFETCH_RETRIES, delayMs = refetchDelayMs, signal }: { retries?: number; delayMs?: (retry: number) => number; signal?: AbortSignal } = {},
): Promise<T> {
  for (let retry = 0; ; retry += 1) {
    try {
      return await read();
    } catch (error) {
      if (retry >= retries || isServerAnswer(error) || signal?.aborted) throw error;
      await pause(delayMs(retry), signal);
    }
  }
}
