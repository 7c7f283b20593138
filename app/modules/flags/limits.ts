/**
 * How long a team waits after wrong answers to a flag challenge (docs/domain.md "Flag challenges"), pure:
 * the guess's transaction reads the team's counted wrong answers from Postgres and asks these.
 *
 * - `limit` wrong answers (the challenge's, else the event's, 5 by default) fit in a window of one minute:
 *   the next waits until the oldest of the last `limit` is a window old.
 * - The window doubles with every further `limit` wrong answers (1, 2, 4 … 32 minutes at most), so a team
 *   that keeps guessing waits longer and longer.
 * - A challenge's maximum of attempts counts its wrong answers; once used, nothing more is taken.
 * An admin's reset (`counted` false) starts the team's count again.
 */
export const WINDOW_MS = 60_000;
const MAX_DOUBLINGS = 5;

/** The window the last `limit` wrong answers must fit in, once `wrongCount` were sent. */
export function windowMs(wrongCount: number, limit: number): number {
  const batches = Math.floor(wrongCount / limit);
  return WINDOW_MS * 2 ** Math.min(Math.max(batches - 1, 0), MAX_DOUBLINGS);
}

/**
 * When the team may send its next wrong answer: null if at once. `recentWrong`: the times of its latest
 * counted wrong answers, newest first (at least `limit` of them when there are); `wrongCount`: all of them.
 */
export function nextGuessAt(recentWrong: readonly Date[], wrongCount: number, limit: number): Date | null {
  if (wrongCount < limit || recentWrong.length < limit) return null;
  return new Date(recentWrong[limit - 1].getTime() + windowMs(wrongCount, limit));
}

/** Whole seconds until `at` (at least 1 while it is ahead), 0 once reached. */
export function secondsUntil(at: Date | null, now: Date): number {
  if (!at) return 0;
  const ms = at.getTime() - now.getTime();
  return ms <= 0 ? 0 : Math.ceil(ms / 1000);
}

/** Attempts left under a maximum (null: no maximum). */
export function attemptsLeft(maxAttempts: number | null, wrongCount: number): number | null {
  return maxAttempts === null ? null : Math.max(0, maxAttempts - wrongCount);
}
