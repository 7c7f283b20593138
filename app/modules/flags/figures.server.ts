/**
 * What a participant's screens show of flag challenges beside their texts: each one's value now (a dynamic
 * challenge's falls with its solves: ./decay.ts), how many teams solved it, and its first three solvers
 * (./first-blood.server.ts). As the freeze allows: the roles that see the live board read them live; while
 * the board is frozen the others read them as of the freeze (docs/domain.md "Dynamic points", "First blood").
 * One statement for any number of challenges. Never an answer.
 */
import { and, eq, sql } from "drizzle-orm";
import { anyOf } from "../../../db/any-of.ts";
import type { Queryable } from "../../../db/client.ts";
import { challenges, flagSolves } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import type { Role } from "../auth/access.ts";
import { challengeValue } from "./decay.ts";
import { firstSolvesFor, freezeCutFor } from "./first-blood.server.ts";

export interface FlagFigures {
  /** The points a solve counts now (as of the freeze, for a participant while frozen). */
  value: number;
  solves: number;
  /** The first three solvers, in order: 1, 2, 3. */
  firsts: Array<{ place: number; team: string }>;
}

/** The figures of these challenges (flag ones only; a judged one is not in the map). */
export async function flagFiguresFor(challengeIds: readonly number[], viewer: { role: Role }, db: Queryable = getDb()): Promise<Map<number, FlagFigures>> {
  const figures = new Map<number, FlagFigures>();
  if (challengeIds.length === 0) return figures;
  const cutAt = await freezeCutFor(viewer, db);
  // Qualified by hand: inside a select of one table drizzle writes its columns unqualified.
  const counted = sql<number>`(select count(*)::int from ${flagSolves} solves where solves.challenge_id = ${challenges}.id${cutAt ? sql` and solves.solved_at <= ${cutAt.toISOString()}::timestamptz` : sql``})`;
  const rows = await db
    .select({ id: challenges.id, points: challenges.points, scoring: challenges.scoring, minimumPoints: challenges.minimumPoints, decay: challenges.decay, solves: counted })
    .from(challenges)
    .where(and(anyOf(challenges.id, [...challengeIds]), eq(challenges.checking, "flag")));
  if (rows.length === 0) return figures;
  const firsts = await firstSolvesFor(
    rows.map((row) => row.id),
    viewer,
    db,
    cutAt,
  );
  for (const row of rows) {
    const solves = Number(row.solves);
    figures.set(row.id, {
      value: challengeValue(row, solves),
      solves,
      firsts: (firsts.get(row.id) ?? []).map((first) => ({ place: first.place, team: first.team })),
    });
  }
  return figures;
}


