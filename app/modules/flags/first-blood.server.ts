/**
 * First blood (docs/domain.md "First blood"): the first three solves of each flag challenge are marked, and
 * the first is announced live to every participant, held while the scoreboard is frozen and sent when it is
 * lifted. Derived from `flag_solves` alone (the order of `solved_at`, then the team id): nothing to keep in
 * step. Changes no score.
 */
import { and, eq, lte, sql } from "drizzle-orm";
import { anyOf } from "../../../db/any-of.ts";
import type { Queryable } from "../../../db/client.ts";
import { challenges, eventSettings, flagSolves, gates, teams, type Category } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import type { Role } from "../auth/access.ts";
import { challengeGateJoin, visibleChallengeSql } from "../challenges/visibility.server.ts";
import { broadcastFirstBlood, broadcastHeldFirstBlood } from "../realtime/broadcast.server.ts";
import type { FirstBloodEvent } from "../realtime/events.ts";
import { seesLiveBoard } from "../standings/frozen-view.ts";
import { enqueueFirstBloodWebhook } from "../webhooks/webhooks.server.ts";

/** How many of a challenge's first solves are marked. */
export const MARKED_SOLVES = 3;

export interface FirstSolve {
  challengeId: number;
  /** 1, 2 or 3. */
  place: number;
  teamId: number;
  team: string;
  solvedAt: Date;
}

/**
 * The first solves of these challenges as the viewer may see them: live for the roles that see the live
 * board; as of the freeze for the others while the board is frozen (a solve after it is not marked yet).
 */
export async function firstSolvesFor(
  challengeIds: readonly number[],
  viewer: { role: Role },
  db: Queryable = getDb(),
  /** The viewer's cut as the caller already read it (freezeCutFor); undefined: read here. */
  known?: Date | null,
): Promise<Map<number, FirstSolve[]>> {
  const marks = new Map<number, FirstSolve[]>();
  if (challengeIds.length === 0) return marks;
  const cutAt = known !== undefined ? known : await freezeCutFor(viewer, db);
  const ranked = db
    .select({
      challengeId: flagSolves.challengeId,
      teamId: flagSolves.teamId,
      solvedAt: flagSolves.solvedAt,
      place: sql<number>`row_number() over (partition by ${flagSolves.challengeId} order by ${flagSolves.solvedAt}, ${flagSolves.teamId})`.as("place"),
    })
    .from(flagSolves)
    .where(and(anyOf(flagSolves.challengeId, [...challengeIds]), cutAt ? lte(flagSolves.solvedAt, cutAt) : undefined))
    .as("ranked");
  const rows = await db
    .select({ challengeId: ranked.challengeId, teamId: ranked.teamId, solvedAt: ranked.solvedAt, place: ranked.place, team: teams.name })
    .from(ranked)
    .innerJoin(teams, eq(teams.id, ranked.teamId))
    .where(lte(ranked.place, MARKED_SOLVES))
    .orderBy(ranked.challengeId, ranked.place);
  for (const row of rows) {
    const solve = { ...row, place: Number(row.place) };
    const list = marks.get(row.challengeId);
    if (list) list.push(solve);
    else marks.set(row.challengeId, [solve]);
  }
  return marks;
}

/** A marked solve as the scoreboard's row details show it: the team, its place, the challenge's title. */
export interface BoardMark {
  teamId: number;
  place: number;
  challengeId: number;
  challenge: string;
}

/**
 * The marked solves (the first three of each flag challenge the viewer may see: staff every one, participants
 * those open to them) of every team, for the scoreboard's row details, as the freeze lets the viewer see them
 * (as of the freeze for who does not see the live board). One statement: each challenge's first three solves
 * through the (challenge, solved_at) index. Titles in the challenge's order, then by place.
 */
export async function marksOnBoard(viewer: { role: Role }, db: Queryable = getDb(), now: Date = new Date()): Promise<BoardMark[]> {
  const live = seesLiveBoard(viewer.role, true);
  const rows = await db.execute<{ challenge_id: number; title: string; team_id: number; place: number }>(sql`
    select ${challenges.id} as challenge_id, ${challenges.title} as title, firsts.team_id,
      row_number() over (partition by ${challenges.id} order by firsts.solved_at, firsts.team_id) as place
    from ${challenges}
    left join ${gates} on ${challengeGateJoin}
    left join ${eventSettings} on ${eventSettings.id} = 1
    cross join lateral (
      select solves.team_id, solves.solved_at from ${flagSolves} solves
      where solves.challenge_id = ${challenges.id}
        and (${live} or ${eventSettings.scoreboardFrozen} is not true or ${eventSettings.frozenAt} is null or solves.solved_at <= ${eventSettings.frozenAt})
      order by solves.solved_at, solves.team_id
      limit ${MARKED_SOLVES}
    ) firsts
    where ${challenges.checking} = 'flag' and ${visibleChallengeSql(viewer, now)}
    order by ${challenges.wave}, ${challenges.id}, place`);
  return rows.map((row) => ({ teamId: Number(row.team_id), place: Number(row.place), challengeId: Number(row.challenge_id), challenge: row.title }));
}

/** Where the viewer's view of solves stops: the freeze's instant for who does not see the live board, else null. */
export async function freezeCutFor(viewer: { role: Role }, db: Queryable = getDb()): Promise<Date | null> {
  const [settings] = await db.select({ frozen: eventSettings.scoreboardFrozen, frozenAt: eventSettings.frozenAt }).from(eventSettings).where(eq(eventSettings.id, 1));
  return settings?.frozen && !seesLiveBoard(viewer.role, true) ? settings.frozenAt : null;
}

/** The challenge's first solve as the live event says it, with what the organisers' webhook adds. */
async function firstBloodOf(db: Queryable, challengeId: number): Promise<(FirstBloodEvent & { teamId: number; points: number }) | null> {
  const [row] = await db
    .select({ challenge: challenges.title, challengeAr: challenges.titleAr, category: challenges.category, team: teams.name, teamId: teams.id, points: challenges.points, at: flagSolves.solvedAt })
    .from(flagSolves)
    .innerJoin(challenges, eq(challenges.id, flagSolves.challengeId))
    .innerJoin(teams, eq(teams.id, flagSolves.teamId))
    .where(eq(flagSolves.challengeId, challengeId))
    .orderBy(flagSolves.solvedAt, flagSolves.teamId)
    .limit(1);
  return row ? { challengeId, challenge: row.challenge, challengeAr: row.challengeAr, category: row.category as Category, team: row.team, at: row.at.toISOString(), teamId: row.teamId, points: row.points } : null;
}

/** What every browser hears of a first blood. */
function publicPart({ teamId: _teamId, points: _points, ...event }: FirstBloodEvent & { teamId: number; points: number }): FirstBloodEvent {
  return event;
}

/** What the organisers' webhook posts of it (app/modules/webhooks). */
function webhookPart(event: FirstBloodEvent & { teamId: number; points: number }) {
  return {
    challengeId: event.challengeId,
    challengeTitle: event.challenge,
    category: event.category,
    points: event.points,
    teamId: event.teamId,
    teamName: event.team,
    solvedAt: new Date(event.at),
  };
}

/**
 * After a first solve committed: the popup to everyone who may see it now (the rest when the freeze is
 * lifted). A hint: a failure is logged, never the player's verdict's.
 */
export async function announceFirstBlood(challengeId: number): Promise<FirstBloodEvent | null> {
  try {
    const event = await firstBloodOf(getDb(), challengeId);
    if (!event) return null;
    const [settings] = await getDb().select({ frozen: eventSettings.scoreboardFrozen, frozenAt: eventSettings.frozenAt }).from(eventSettings).where(eq(eventSettings.id, 1));
    // Held when it fell inside the freeze, by the same instant the release reads (a solve made just before the
    // freeze and committed after it is the board's as of the freeze: told now).
    const frozen = Boolean(settings?.frozen && settings.frozenAt && new Date(event.at) > settings.frozenAt);
    broadcastFirstBlood(publicPart(event), frozen);
    // The organisers' chat may be read by players: it hears a first blood when participants do. Not awaited: the
    // verdict never waits for Redis to take the job (the enqueue logs its own failure, never throws).
    if (!frozen) void enqueueFirstBloodWebhook(webhookPart(event));
    return publicPart(event);
  } catch (error) {
    getLogger().warn({ err: error, challengeId }, "first blood not announced");
    return null;
  }
}

/**
 * When the freeze is lifted (or a new one taken): the first bloods that fell inside it, to the rooms that did
 * not hear them then, oldest first. `frozenAt`: when the board froze; `until`: a new freeze's instant (null:
 * lifted).
 */
export async function releaseHeldFirstBloods(frozenAt: Date, until: Date | null = null): Promise<number> {
  const firsts = await getDb()
    .selectDistinctOn([flagSolves.challengeId], { challengeId: flagSolves.challengeId, at: flagSolves.solvedAt })
    .from(flagSolves)
    .orderBy(flagSolves.challengeId, flagSolves.solvedAt, flagSolves.teamId);
  const held = firsts.filter((first) => first.at > frozenAt && (until === null || first.at <= until)).sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const first of held) {
    const event = await firstBloodOf(getDb(), first.challengeId);
    if (!event) continue;
    broadcastHeldFirstBlood(publicPart(event));
    await enqueueFirstBloodWebhook(webhookPart(event));
  }
  return held.length;
}

/** Whether a solve just made is the challenge's first (read in the solve's transaction, under the challenge's lock). */
export async function isFirstSolve(tx: Queryable, challengeId: number, teamId: number): Promise<boolean> {
  const [other] = await tx
    .select({ teamId: flagSolves.teamId })
    .from(flagSolves)
    .where(and(eq(flagSolves.challengeId, challengeId), sql`${flagSolves.teamId} <> ${teamId}`))
    .limit(1);
  return other === undefined;
}
