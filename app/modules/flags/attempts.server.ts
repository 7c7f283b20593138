/**
 * What the admins read of the teams' answers to flag challenges, and what they do about them (docs/domain.md
 * "Flag challenges"): every attempt, newest first, a page at a time and as CSV; the wrong answers still
 * counted against a team (and their reset); the sharing signals; each team's per-team flag as CSV. A right
 * answer reads "answer n", never the flag; a wrong one is what was typed (kept only where flags are not per
 * team). None of this reaches a participant: the routes are admins' only (app/modules/auth/access.ts).
 */
import { and, asc, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Queryable } from "../../../db/client.ts";
import { challengeFlags, challenges, flagAttempts, flagSharing, flagTries, teams, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type UserActor } from "../audit/audit.server.ts";
import { auditTimeText } from "../audit/present.ts";
import { DomainError } from "../errors.ts";
import { csvHead, csvRows, toCsv, type CsvCell } from "../exports/csv-format.server.ts";
import { messages } from "../messages.ts";
import { readListPage } from "../paging.ts";
import type { AttemptFilter, AttemptVerdict } from "./attempts-query.ts";
import { CALLERS_CHANGED_CHANNEL, FLAG_RESET_PREFIX } from "../auth/caller-changes.server.ts";
import { PER_TEAM_SLOT, perTeamFlag } from "./matching.server.ts";

const m = messages.flagAttempts;

/** Rows a page of the attempts (or of the sharing signals) holds. */
export const ATTEMPTS_PAGE_SIZE = 50;

/** The counted wrong answers listed for a reset, the most recent first (a filter finds the others). */
export const RESETTABLE_LIMIT = 100;

export interface AttemptRow {
  id: number;
  at: Date;
  teamId: number;
  team: string;
  userId: number | null;
  /** Null: the user was deleted. */
  user: string | null;
  challengeId: number;
  challenge: string;
  verdict: AttemptVerdict;
  /** A right answer's position ("answer n"). */
  matched: number | null;
  /** A wrong answer as typed; null where the challenge's flags are per team (not kept). */
  answer: string | null;
  /** False once an admin reset the team's count. */
  counted: boolean;
}

const attemptColumns = {
  id: flagAttempts.id,
  at: flagAttempts.at,
  teamId: flagAttempts.teamId,
  team: teams.name,
  userId: flagAttempts.userId,
  user: users.name,
  challengeId: flagAttempts.challengeId,
  challenge: challenges.title,
  verdict: flagAttempts.verdict,
  matched: flagAttempts.matched,
  answer: flagAttempts.answer,
  counted: flagAttempts.counted,
};

function attemptConditions(filter: AttemptFilter): SQL | undefined {
  return and(
    filter.teamId === undefined ? undefined : eq(flagAttempts.teamId, filter.teamId),
    filter.challengeId === undefined ? undefined : eq(flagAttempts.challengeId, filter.challengeId),
    filter.verdict === undefined ? undefined : eq(flagAttempts.verdict, filter.verdict),
  );
}

function attemptsQuery(where: SQL | undefined) {
  return getDb()
    .select(attemptColumns)
    .from(flagAttempts)
    .innerJoin(teams, eq(teams.id, flagAttempts.teamId))
    .innerJoin(challenges, eq(challenges.id, flagAttempts.challengeId))
    .leftJoin(users, eq(users.id, flagAttempts.userId))
    .where(where)
    .orderBy(desc(flagAttempts.at), desc(flagAttempts.id));
}

/** A page of the filtered attempts, newest first. */
export async function listAttemptsPage(filter: AttemptFilter, requested: number | undefined) {
  const where = attemptConditions(filter);
  const [{ total }] = await getDb().select({ total: sql<number>`count(*)::int`.mapWith(Number) }).from(flagAttempts).where(where);
  return readListPage<AttemptRow>(total, requested, ATTEMPTS_PAGE_SIZE, (limit, offset) => attemptsQuery(where).limit(limit).offset(offset));
}

/** Every filtered attempt, newest first, read by keyset `chunk` at a time (the CSV). */
export async function* attemptRecords(filter: AttemptFilter, chunk = 1000): AsyncGenerator<AttemptRow[]> {
  let after: { at: string; id: number } | null = null;
  for (;;) {
    const where = and(attemptConditions(filter), after ? sql`(${flagAttempts.at}, ${flagAttempts.id}) < (${after.at}::timestamptz, ${after.id})` : undefined);
    // The cursor keeps the instant as Postgres wrote it (microseconds), not as a JavaScript Date cuts it.
    const rows = await getDb()
      .select({ ...attemptColumns, cursor: sql<string>`${flagAttempts.at}::text` })
      .from(flagAttempts)
      .innerJoin(teams, eq(teams.id, flagAttempts.teamId))
      .innerJoin(challenges, eq(challenges.id, flagAttempts.challengeId))
      .leftJoin(users, eq(users.id, flagAttempts.userId))
      .where(where)
      .orderBy(desc(flagAttempts.at), desc(flagAttempts.id))
      .limit(chunk);
    if (rows.length === 0) return;
    yield rows.map(({ cursor: _cursor, ...row }) => row);
    if (rows.length < chunk) return;
    const last = rows[rows.length - 1];
    after = { at: last.cursor, id: last.id };
  }
}

/** What a CSV (or a screen reader of the CSV) says of an attempt's answer: "answer n", or what was typed. */
export function attemptAnswerText(row: Pick<AttemptRow, "verdict" | "matched" | "answer">): string {
  if (row.verdict === "correct") return `answer ${row.matched ?? "?"}`;
  return row.answer ?? "(not kept: per-team flags)";
}

export function attemptsCsvHeader(timeZone: string): string[] {
  return ["Attempt", "Time (UTC)", `Time (${timeZone})`, "Team id", "Team", "User id", "User", "Challenge id", "Challenge", "Verdict", "Answer", "Counted"];
}

/**
 * The filtered attempts as CSV, written as read (csvStreamResponse): every cell defused as the other exports'
 * (app/modules/exports/csv-format.server.ts), a typed answer most of all.
 */
export async function* attemptsCsv(filter: AttemptFilter, timeZone: string, chunk = 1000): AsyncGenerator<string> {
  yield csvHead(attemptsCsvHeader(timeZone));
  for await (const rows of attemptRecords(filter, chunk)) {
    yield csvRows(
      rows.map((row): CsvCell[] => [
        row.id,
        row.at.toISOString(),
        auditTimeText(row.at, timeZone),
        row.teamId,
        row.team,
        row.userId,
        row.user,
        row.challengeId,
        row.challenge,
        row.verdict,
        attemptAnswerText(row),
        row.verdict === "incorrect" ? row.counted : null,
      ]),
    );
  }
}

export interface ResettableCount {
  teamId: number;
  team: string;
  challengeId: number;
  challenge: string;
  /** Wrong answers counted against the team (its wait and its attempts left read them). */
  wrong: number;
  maxAttempts: number | null;
  lastAt: Date;
}

/** Each team and challenge with counted wrong answers (the team and challenge filters apply), the latest first. */
export async function listResettable(filter: AttemptFilter, limit = RESETTABLE_LIMIT): Promise<ResettableCount[]> {
  const lastAt = sql<Date>`max(${flagAttempts.at})`.mapWith(flagAttempts.at);
  return getDb()
    .select({
      teamId: flagAttempts.teamId,
      team: teams.name,
      challengeId: flagAttempts.challengeId,
      challenge: challenges.title,
      wrong: sql<number>`count(*)::int`.mapWith(Number),
      maxAttempts: challenges.maxAttempts,
      lastAt,
    })
    .from(flagAttempts)
    .innerJoin(teams, eq(teams.id, flagAttempts.teamId))
    .innerJoin(challenges, eq(challenges.id, flagAttempts.challengeId))
    .where(and(attemptConditions({ teamId: filter.teamId, challengeId: filter.challengeId, verdict: "incorrect" }), eq(flagAttempts.counted, true)))
    .groupBy(flagAttempts.teamId, teams.name, flagAttempts.challengeId, challenges.title, challenges.maxAttempts)
    .orderBy(desc(lastAt), asc(flagAttempts.teamId), asc(flagAttempts.challengeId))
    .limit(limit);
}

/**
 * An admin's reset of a team's count on a challenge: its counted wrong answers stop counting (kept, and still
 * listed), so its wait and its attempts left start again. Under the team's answer lock (a wrong answer sent
 * at the same instant is counted after the reset, never lost in it); audited with how many.
 */
export async function resetWrongAnswers(actor: UserActor, teamId: number, challengeId: number): Promise<{ team: string; challenge: string; count: number }> {
  return getDb().transaction(async (tx) => {
    const [team] = await tx.select({ name: teams.name }).from(teams).where(eq(teams.id, teamId));
    if (!team) throw new DomainError(m.teamNotFound, { status: 404, field: "teamId" });
    const [challenge] = await tx.select({ title: challenges.title, checking: challenges.checking }).from(challenges).where(eq(challenges.id, challengeId));
    if (!challenge) throw new DomainError(m.challengeNotFound, { status: 404, field: "challengeId" });
    if (challenge.checking !== "flag") throw new DomainError(m.notFlag, { status: 409, field: "challengeId" });
    // The team's row first: its lock makes a wrong answer sent at the same instant wait (200 ms at most, then it is
    // refused to be sent again: guess.server.ts), then count after the reset.
    await tx.update(flagTries).set({ wrong: 0, recent: [] }).where(and(eq(flagTries.teamId, teamId), eq(flagTries.challengeId, challengeId)));
    const reset = await tx
      .update(flagAttempts)
      .set({ counted: false })
      .where(and(eq(flagAttempts.teamId, teamId), eq(flagAttempts.challengeId, challengeId), eq(flagAttempts.verdict, "incorrect"), eq(flagAttempts.counted, true)))
      .returning({ id: flagAttempts.id });
    if (reset.length === 0) throw new DomainError(m.nothingToReset, { status: 409 });
    await recordAudit(tx, actor, {
      kind: "flag.attempts-reset",
      teamId,
      subjectId: challengeId,
      // How many: the count before and after ("wrong answers counted 3 → 0").
      before: { challenge: challengeId, wrongAnswersCounted: reset.length },
      after: { challenge: challengeId, wrongAnswersCounted: 0 },
    });
    // Every web process forgets the refusals it remembers for this team (guess.server.ts), at this commit.
    await tx.execute(sql`select pg_notify(${CALLERS_CHANGED_CHANNEL}, ${`${FLAG_RESET_PREFIX}${teamId}:${challengeId}`})`);
    return { team: team.name, challenge: challenge.title, count: reset.length };
  });
}

export interface SharingRow {
  id: number;
  at: Date;
  /** The team that sent another team's flag. */
  teamId: number;
  team: string;
  /** The team whose flag it was. */
  ownerTeamId: number;
  ownerTeam: string;
  userId: number | null;
  user: string | null;
  challengeId: number;
  challenge: string;
}

const ownerTeam = alias(teams, "owner_team");

function sharingConditions(filter: AttemptFilter): SQL | undefined {
  return and(
    filter.teamId === undefined ? undefined : or(eq(flagSharing.teamId, filter.teamId), eq(flagSharing.ownerTeamId, filter.teamId)),
    filter.challengeId === undefined ? undefined : eq(flagSharing.challengeId, filter.challengeId),
  );
}

/** A page of the sharing signals, newest first: the team filter matches either team. */
export async function listSharingPage(filter: AttemptFilter, requested: number | undefined) {
  const where = sharingConditions(filter);
  const [{ total }] = await getDb().select({ total: sql<number>`count(*)::int`.mapWith(Number) }).from(flagSharing).where(where);
  return readListPage<SharingRow>(total, requested, ATTEMPTS_PAGE_SIZE, (limit, offset) =>
    getDb()
      .select({
        id: flagSharing.id,
        at: flagSharing.at,
        teamId: flagSharing.teamId,
        team: teams.name,
        ownerTeamId: flagSharing.ownerTeamId,
        ownerTeam: ownerTeam.name,
        userId: flagSharing.userId,
        user: users.name,
        challengeId: flagSharing.challengeId,
        challenge: challenges.title,
      })
      .from(flagSharing)
      .innerJoin(teams, eq(teams.id, flagSharing.teamId))
      .innerJoin(ownerTeam, eq(ownerTeam.id, flagSharing.ownerTeamId))
      .innerJoin(challenges, eq(challenges.id, flagSharing.challengeId))
      .leftJoin(users, eq(users.id, flagSharing.userId))
      .where(where)
      .orderBy(desc(flagSharing.at), desc(flagSharing.id))
      .limit(limit)
      .offset(offset),
  );
}

/** How many sharing signals there are in all (the tab's count). */
export async function sharingTotal(): Promise<number> {
  const [{ total }] = await getDb().select({ total: sql<number>`count(*)::int`.mapWith(Number) }).from(flagSharing);
  return total;
}

/** The filters' choices: every team, and every flag challenge (those with a per-team answer marked). */
export async function attemptFilterChoices() {
  const [teamList, challengeList] = await Promise.all([
    getDb().select({ id: teams.id, name: teams.name }).from(teams).orderBy(asc(teams.name), asc(teams.id)),
    getDb()
      .select({
        id: challenges.id,
        title: challenges.title,
        // Qualified by hand: in a one-table select drizzle writes a column unqualified ("id" would be the flags' own).
        perTeam: sql<boolean>`exists (select 1 from ${challengeFlags} answer where answer.challenge_id = ${challenges}.id and answer.kind = 'per_team')`,
      })
      .from(challenges)
      .where(eq(challenges.checking, "flag"))
      .orderBy(asc(challenges.title), asc(challenges.id)),
  ]);
  return { teams: teamList, challenges: challengeList };
}

/**
 * Every team's per-team flag of a challenge as CSV (team id, team name, flag), derived from its secret and its
 * first per-team answer's text as the matching does (perTeamFlag). Reading every team's flag at once is the
 * one read that could undo the event, so it is audited ("flag.export": who, when, which challenge, how many
 * teams; never a flag).
 */
export async function teamFlagsCsv(actor: UserActor, challengeId: number): Promise<{ csv: string; challenge: string }> {
  return getDb().transaction(async (tx) => {
    const { challenge, secret, wrapper } = await perTeamDerivation(tx, challengeId);
    const teamList = await tx.select({ id: teams.id, name: teams.name }).from(teams).orderBy(asc(teams.id));
    await recordAudit(tx, actor, { kind: "flag.export", subjectId: challengeId, after: { challenge: challengeId, teams: teamList.length } });
    return {
      challenge,
      csv: toCsv(
        ["Team id", "Team", "Flag"],
        teamList.map((team) => [team.id, team.name, perTeamFlag(secret, team.id, wrapper)]),
      ),
    };
  });
}

/**
 * The challenge's per-team key and answer text, for organisers who build each team's flag into their own files or
 * services (docs/domain.md "Flag challenges"): a short text with the derivation written out and one team's flag to
 * check their code against. As much a secret as every team's flag at once, so audited the same way
 * ("flag.export", with `key: true`; never the key).
 */
export async function teamFlagsKey(actor: UserActor, challengeId: number): Promise<{ text: string; challenge: string }> {
  return getDb().transaction(async (tx) => {
    const { challenge, secret, wrapper } = await perTeamDerivation(tx, challengeId);
    const [first] = await tx.select({ id: teams.id }).from(teams).orderBy(asc(teams.id)).limit(1);
    await recordAudit(tx, actor, { kind: "flag.export", subjectId: challengeId, after: { challenge: challengeId, key: true } });
    const example = first ? `Team ${first.id}'s flag: ${perTeamFlag(secret, first.id, wrapper)}` : "No team yet.";
    return {
      challenge,
      text: [
        `Challenge ${challengeId}: ${challenge}`,
        `Answer text: ${wrapper}`,
        `Key (hex, 32 bytes): ${secret}`,
        "A team's flag: HMAC-SHA256 keyed with the key's 32 bytes (decode the hex), over the team's id in decimal (UTF-8),",
        `in lower-case hex, cut to its first 32 digits, put where the answer text first says ${PER_TEAM_SLOT} (a text without`,
        "it gets {digits} at its end).",
        example,
        "",
      ].join("\n"),
    };
  });
}

/** A per-team challenge's title, key and first per-team answer's text (trimmed), or the 404/409 that says why not. */
async function perTeamDerivation(tx: Queryable, challengeId: number): Promise<{ challenge: string; secret: string; wrapper: string }> {
  const [challenge] = await tx.select({ title: challenges.title, secret: challenges.flagSecret }).from(challenges).where(eq(challenges.id, challengeId));
  if (!challenge) throw new DomainError(m.challengeNotFound, { status: 404, field: "challenge" });
  const [answer] = await tx
    .select({ value: challengeFlags.value })
    .from(challengeFlags)
    .where(and(eq(challengeFlags.challengeId, challengeId), eq(challengeFlags.kind, "per_team")))
    .orderBy(asc(challengeFlags.position))
    .limit(1);
  if (!answer || !challenge.secret) throw new DomainError(m.notPerTeam, { status: 409, field: "challenge" });
  return { challenge: challenge.title, secret: challenge.secret, wrapper: answer.value.trim() };
}
