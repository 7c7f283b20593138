/**
 * Every class of transaction-scoped advisory lock, `pg_advisory_xact_lock(class, key)`, in one list: a class is
 * one kind of thing locked, and two kinds sharing a class would block each other by accident (a team's
 * submission and a user's statistics once shared 4244, so a team and a user with the same id waited on each
 * other, and could deadlock). db/advisory-locks.test.ts checks the classes are distinct and that every advisory
 * lock in the code names one of these.
 */
export const LOCK_CLASS = {
  /** A team's standings recompute (app/modules/standings/locks.ts). */
  team: 4242,
  /** The whole board: shared by recomputes, exclusive for a rebuild or a freeze. */
  board: 4243,
  /** A user's statistics, written by the recomputes of the teams they were in. */
  userStatistics: 4244,
  /** Claims on one submission (app/modules/judging/claims.server.ts). */
  judgeClaim: 4245,
  /** A team's submission writes (app/modules/submissions/submit.server.ts). */
  submission: 4246,
  /** A team's code runs being sent (app/modules/code/runs.server.ts): its queued-runs and per-minute limits. */
  codeRuns: 4247,
} as const;

/** The one lock taken with a single key (`pg_advisory_xact_lock(key)`, a key space of its own): making accounts. */
export const ACCOUNTS_LOCK_KEY = 6_006_001;
