/**
 * Code challenges' points, IOI style (docs/domain.md "Code challenges"): a run earns the subtasks every test of
 * which it passed; a team's points for the challenge are the best of each subtask over all its runs, reached at
 * the run that first passed the last of them to be passed. The team_answers view (migration code_runs) says the
 * same in SQL; this is its TypeScript twin, for the pages and the tests.
 */

export interface SubtaskShare {
  name: string;
  share: number;
}

/** Points in hundredths for `earned` of `total` shares of `points`, rounded half up, with integers only. */
export function pointsCentiOfShares(points: number, earned: number, total: number): number {
  if (total <= 0 || earned <= 0) return 0;
  return Math.floor((2 * points * 100 * earned + total) / (2 * total));
}

export interface RunForScore {
  id: number;
  createdAt: Date;
  passedSubtasks: readonly string[];
}

export interface ChallengeScore {
  /** The subtasks the team has passed in any run, with the run that first passed each. */
  passed: Array<{ name: string; share: number; runId: number; at: Date }>;
  earnedShare: number;
  pointsCenti: number;
  /** When the team reached these points: the latest of the first passes of subtasks worth something (null: nothing earned). */
  reachedAt: Date | null;
}

/** The team's points for a challenge from all its judged runs (any order). */
export function teamChallengeScore(points: number, subtasks: readonly SubtaskShare[], runs: readonly RunForScore[]): ChallengeScore {
  const total = subtasks.reduce((sum, subtask) => sum + subtask.share, 0);
  const ordered = [...runs].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
  const passed: ChallengeScore["passed"] = [];
  for (const subtask of subtasks) {
    const first = ordered.find((run) => run.passedSubtasks.includes(subtask.name));
    if (first) passed.push({ name: subtask.name, share: subtask.share, runId: first.id, at: first.createdAt });
  }
  const earnedShare = passed.reduce((sum, subtask) => sum + subtask.share, 0);
  // A subtask worth nothing (the samples) dates nothing, as in the team_answers view.
  const earning = passed.filter((subtask) => subtask.share > 0);
  const reachedAt = earning.length ? new Date(Math.max(...earning.map((subtask) => subtask.at.getTime()))) : null;
  return { passed, earnedShare, pointsCenti: pointsCentiOfShares(points, earnedShare, total), reachedAt };
}
