/**
 * What a player reads of the limits on wrong answers (docs/domain.md "Guessing has a price"). The rule itself,
 * when a team may send its next wrong answer, is Postgres's `gk_flag_next_guess_at` (migration 0024), asked by
 * the verdict's statement under the team's row lock and by the page that shows the wait, in one place:
 *
 * - `limit` wrong answers (the challenge's, else the event's, 5 by default) fit in a window of one minute:
 *   the next waits until the oldest of the last `limit` is a window old.
 * - The window doubles with every further `limit` wrong answers (1, 2, 4 … 32 minutes at most), so a team
 *   that keeps guessing waits longer and longer.
 * - A challenge's maximum of attempts counts its wrong answers; once used, nothing more is taken.
 * An admin's reset starts the team's count again.
 */

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
