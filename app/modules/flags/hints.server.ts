/**
 * Hints that cost points (docs/domain.md "Hints that cost points"): a list on a challenge, apart from its
 * `hints` field (which judges read as criteria). A team unlocks one deliberately; the cost is recorded with
 * the unlock (what was paid stays as it was if the admin changes the cost later), counted against the team
 * through `team_awards` (its total, the challenge's category and its reached time, as an award), audited,
 * and the text reaches that team from then on. A locked hint's text never leaves this module.
 */
import { and, asc, eq, type SQL, sql, type SQLWrapper } from "drizzle-orm";
import { jsonObjectSql, parsedJson } from "../../../db/json.ts";
import type { Queryable } from "../../../db/client.ts";
import { challengeHints, challenges, eventSettings, gates, hintUnlocks } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { answerGateColumns, challengeGateJoin, refusalToAnswer } from "../challenges/visibility.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { fromCenti } from "../scoring/rules.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { MAX_PAID_HINTS } from "./paid-hints.ts";

const m = messages.hints;

/** A hint as a team sees it: its text only once unlocked. */
export interface TeamHint {
  id: number;
  position: number;
  /** What unlocking it costs (points, up to 2 decimals); 0: free. */
  cost: number;
  unlocked: boolean;
  text: string | null;
}

/** A challenge's hints for a team (null: a viewer without a team, who unlocks nothing and reads no text). */
export async function hintsForTeam(challengeId: number, teamId: number | null, db: Queryable = getDb()): Promise<TeamHint[]> {
  const rows = await db
    .select({ id: challengeHints.id, position: challengeHints.position, costCenti: challengeHints.costCenti, text: challengeHints.text, unlockedAt: hintUnlocks.unlockedAt })
    .from(challengeHints)
    .leftJoin(hintUnlocks, and(eq(hintUnlocks.hintId, challengeHints.id), eq(hintUnlocks.teamId, teamId ?? -1)))
    .where(eq(challengeHints.challengeId, challengeId))
    .orderBy(asc(challengeHints.position));
  return rows.map((row) => ({
    id: row.id,
    position: row.position,
    cost: fromCenti(row.costCenti),
    unlocked: row.unlockedAt !== null,
    text: row.unlockedAt !== null ? row.text : null,
  }));
}

/**
 * A challenge's hints for a team as one JSON column, for the challenge page's own statement (its row, read
 * with the badges: app/modules/participant/board.server.ts): a locked hint's text is null in Postgres already.
 * `challengeId`, `teamId`: SQL for them in that statement.
 */
export function teamHintsSql(challengeId: SQLWrapper, teamId: SQLWrapper): SQL {
  const unlocked = sql`${hintUnlocks.teamId} is not null`;
  const hint = jsonObjectSql({
    id: challengeHints.id,
    position: challengeHints.position,
    costCenti: challengeHints.costCenti,
    unlocked,
    text: sql`case when ${unlocked} then ${challengeHints.text} end`,
  });
  return sql`(select coalesce(json_agg(${hint} order by ${challengeHints.position}), '[]'::json) from ${challengeHints}
    left join ${hintUnlocks} on ${hintUnlocks.hintId} = ${challengeHints.id} and ${hintUnlocks.teamId} = ${teamId}
    where ${challengeHints.challengeId} = ${challengeId})`;
}

/** The column of teamHintsSql, as the page shows it. */
export function teamHintsOf(column: unknown): TeamHint[] {
  const rows = (parsedJson(column) as Array<{ id: number; position: number; costCenti: number; unlocked: boolean; text: string | null }> | null) ?? [];
  return rows.map((row) => ({ id: row.id, position: row.position, cost: fromCenti(row.costCenti), unlocked: row.unlocked, text: row.unlocked ? row.text : null }));
}

export class HintError extends DomainError {}

/**
 * A member unlocks a hint for the team: charged once (a second unlock, or two members at once, pay nothing
 * more: the key is the team and the hint), only for a challenge the team may answer now.
 */
export async function unlockHint(input: { actor: Actor & { id: number }; teamId: number | null; hintId: number; now?: Date }): Promise<{ text: string; cost: number; charged: boolean }> {
  if (input.teamId === null) throw new HintError(m.noTeam, { status: 403 });
  const teamId = input.teamId;
  const outcome = await getDb().transaction(async (tx) => {
    const now = input.now ?? new Date();
    const [hint] = await tx
      .select({
        challengeId: challengeHints.challengeId,
        position: challengeHints.position,
        text: challengeHints.text,
        costCenti: challengeHints.costCenti,
        ...answerGateColumns,
      })
      .from(challengeHints)
      .innerJoin(challenges, eq(challenges.id, challengeHints.challengeId))
      .leftJoin(gates, challengeGateJoin)
      .leftJoin(eventSettings, eq(eventSettings.id, 1))
      .where(eq(challengeHints.id, input.hintId));
    if (!hint) throw new HintError(m.notFound, { status: 404 });
    const refused = await refusalToAnswer(tx, hint, { teamId, challengeId: hint.challengeId }, now);
    // A challenge the team may not see is, to it, no hint at all.
    if (refused === "locked") throw new HintError(messages.participant.challengeLocked, { status: 403 });
    if (refused === "submissionsClosed") throw new HintError(messages.participant.submissionsClosed, { status: 403 });
    if (refused) throw new HintError(m.notFound, { status: 404 });
    const inserted = await tx
      .insert(hintUnlocks)
      .values({ teamId, hintId: input.hintId, userId: input.actor.id, costCenti: hint.costCenti, unlockedAt: now })
      .onConflictDoNothing()
      .returning({ costCenti: hintUnlocks.costCenti });
    const charged = inserted.length === 1;
    if (charged) {
      if (hint.costCenti > 0) await markStandingsStale(tx, teamId);
      await recordAudit(tx, input.actor, {
        kind: "hint.unlocked",
        teamId,
        userId: input.actor.id,
        subjectId: hint.challengeId,
        after: { challenge: hint.challengeId, hint: hint.position, cost: fromCenti(hint.costCenti) },
      });
    }
    return { text: hint.text, cost: fromCenti(hint.costCenti), charged, moves: charged && hint.costCenti > 0 };
  });
  if (outcome.moves) await requestStandingsRecompute(teamId);
  return { text: outcome.text, cost: outcome.cost, charged: outcome.charged };
}

/**
 * The API's unlock (`POST /challenges/{id}/hints/{number}/unlock`): a challenge's hint by its number, from 1,
 * unlocked by `unlockHint`'s rule. A number the challenge has no hint at is a 404, as a hint of a challenge the
 * team may not see.
 */
export async function unlockHintAt(input: { actor: Actor & { id: number }; teamId: number | null; challengeId: number; number: number }) {
  if (input.teamId === null) throw new HintError(m.noTeam, { status: 403 });
  if (input.number > MAX_PAID_HINTS) throw new HintError(m.notFound, { status: 404 });
  const [hint] = await getDb()
    .select({ id: challengeHints.id })
    .from(challengeHints)
    .where(and(eq(challengeHints.challengeId, input.challengeId), eq(challengeHints.position, input.number)));
  if (!hint) throw new HintError(m.notFound, { status: 404 });
  return { number: input.number, ...(await unlockHint({ actor: input.actor, teamId: input.teamId, hintId: hint.id })) };
}

/** An admin's list of a challenge's hints: position, text and cost, in order. */
export async function readHints(challengeId: number, db: Queryable = getDb()) {
  return db
    .select({ id: challengeHints.id, position: challengeHints.position, text: challengeHints.text, costCenti: challengeHints.costCenti })
    .from(challengeHints)
    .where(eq(challengeHints.challengeId, challengeId))
    .orderBy(asc(challengeHints.position));
}

/**
 * Replaces a challenge's hints (an admin's form), inside the caller's transaction: hints keep their rows by
 * position (a team's unlock stays with its hint, the text and cost it shows are the new ones; what it paid is
 * what it paid); a hint a team has unlocked cannot be removed (409).
 */
export async function replaceHints(tx: Queryable, challengeId: number, hints: ReadonlyArray<{ text: string; costCenti: number }>) {
  const existing = await readHints(challengeId, tx);
  for (const [index, hint] of hints.entries()) {
    const position = index + 1;
    const current = existing.find((row) => row.position === position);
    if (current) await tx.update(challengeHints).set({ text: hint.text, costCenti: hint.costCenti }).where(eq(challengeHints.id, current.id));
    else await tx.insert(challengeHints).values({ challengeId, position, text: hint.text, costCenti: hint.costCenti });
  }
  const removed = existing.filter((row) => row.position > hints.length);
  for (const row of removed) {
    const [unlocked] = await tx.select({ n: sql<number>`count(*)::int` }).from(hintUnlocks).where(eq(hintUnlocks.hintId, row.id));
    if (Number(unlocked.n) > 0) throw new HintError(m.removeUnlocked(row.position), { status: 409, field: "paidHints" });
    await tx.delete(challengeHints).where(eq(challengeHints.id, row.id));
  }
}
