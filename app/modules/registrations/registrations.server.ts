/**
 * Public registration (docs/domain.md): one row per registration in `registrations`. An address registered
 * before is stored again and the visitor thanked alike (the answer must not tell who registered); the admins
 * see the duplicate on their list. Abuse is held off by a per-IP rate limit in Redis (shared by every web
 * process) and a honeypot field; docs/decisions/006-registration.md says why these numbers.
 */
import { stripControlCharacters } from "../form-fields.ts";
import { and, asc, count, eq, ilike, isNotNull, or, sql, type SQL } from "drizzle-orm";
import { registrations, users, type Registration } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { triesLimiter } from "../../infrastructure/tries.server.ts";
import type { Language } from "../i18n/i18n.ts";
import { HONEYPOT_FIELD, TSHIRT_SIZES, type RegistrationInput, type TshirtSize } from "./schema.ts";

/** 10 accepted attempts per IP per hour, then a 1-hour wait (decision 006). */
export const REGISTRATION_LIMIT = { points: 10, duration: 60 * 60 } as const;

const tries = triesLimiter("register-ip", REGISTRATION_LIMIT);

export type RegisterOutcome =
  | { kind: "created"; id: number }
  /** The honeypot was filled: the visitor is told it worked, nothing is stored. */
  | { kind: "ignored" }
  | { kind: "rate-limited"; retryAfterSeconds: number };

/**
 * Counts one attempt for the IP; returns seconds to wait when over the limit, else 0.
 * If Redis is down we let the registration through (logging it) rather than close the form; an attempt
 * that stores nothing because of an outage is given back (`giveAttemptBack`).
 */
async function consumeAttempt(ip: string): Promise<number> {
  try {
    return await tries.take(ip);
  } catch (error) {
    getLogger().warn({ err: error }, "registration rate limit unavailable");
    return 0;
  }
}

/**
 * Gives the attempt's point back: the registration was not stored for a reason on our side (Postgres
 * unreachable, a fault), not the visitor's, so an outage does not lock their address out afterwards.
 */
async function giveAttemptBack(ip: string): Promise<void> {
  try {
    await tries.giveBack(ip);
  } catch (error) {
    getLogger().warn({ err: error }, "registration rate limit unavailable: attempt not given back");
  }
}

const blankToNull = (value: string | undefined) => (value?.trim() ? value.trim() : null);

/**
 * Stores a validated registration coming from `ip`, shown in `language` (the account made from it is mailed
 * in it). An address registered before is stored all the same: the answer is the same either way.
 */
export async function register(input: RegistrationInput, ip: string, language: Language = "en"): Promise<RegisterOutcome> {
  if (input[HONEYPOT_FIELD]?.trim()) {
    getLogger().info({ ip }, "registration honeypot filled; ignored");
    return { kind: "ignored" };
  }
  const retryAfterSeconds = await consumeAttempt(ip);
  if (retryAfterSeconds > 0) return { kind: "rate-limited", retryAfterSeconds };
  const hasTeam = input.hasTeam === "yes";
  try {
    const [row] = await getDb()
      .insert(registrations)
      .values({
        name: input.name,
        lastName: input.lastName,
        email: input.email,
        phone: input.phone,
        nationalId: input.nationalId,
        skill: input.skill,
        tshirtSize: input.tshirtSize,
        hasTeam,
        // A team name typed before answering "no" is not a team.
        teamName: hasTeam ? blankToNull(input.teamName) : null,
        linkedin: blankToNull(input.linkedin),
        portfolio: blankToNull(input.portfolio),
        major: blankToNull(input.major),
        university: blankToNull(input.university),
        language,
      })
      .returning({ id: registrations.id });
    return { kind: "created", id: row.id };
  } catch (error) {
    // A failure of ours gives the attempt back (decision 006).
    await giveAttemptBack(ip);
    throw error;
  }
}

/**
 * A registration with the login name of the account made from it, if any, and how many registrations share
 * its address (1: none other; the list marks the others as duplicates).
 */
export type RegistrationRow = Registration & { userName: string | null; sameAddress: number };

function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Matches the query against name (first, last or both), email, team name and skill. */
function searchCondition(query: string | undefined): SQL | undefined {
  const words = stripControlCharacters(query ?? "").trim().split(/\s+/).filter(Boolean).slice(0, 8);
  if (!words.length) return undefined;
  return and(
    ...words.map((word) => {
      const pattern = `%${escapeLike(word)}%`;
      return or(
        ilike(registrations.name, pattern),
        ilike(registrations.lastName, pattern),
        ilike(registrations.email, pattern),
        ilike(registrations.teamName, pattern),
        ilike(registrations.skill, pattern),
      );
    }),
  );
}

/** Registrations matching the search, oldest first (the order people signed up). */
export async function listRegistrations(query?: string): Promise<RegistrationRow[]> {
  return getDb()
    .select({
      id: registrations.id,
      name: registrations.name,
      lastName: registrations.lastName,
      email: registrations.email,
      phone: registrations.phone,
      nationalId: registrations.nationalId,
      skill: registrations.skill,
      tshirtSize: registrations.tshirtSize,
      hasTeam: registrations.hasTeam,
      teamName: registrations.teamName,
      linkedin: registrations.linkedin,
      portfolio: registrations.portfolio,
      major: registrations.major,
      university: registrations.university,
      userId: registrations.userId,
      userName: users.name,
      language: registrations.language,
      // Every registration with the address, whatever the search shows (qualified by hand: decision 018's note on subqueries).
      sameAddress: sql<number>`(select count(*)::int from registrations as same where lower(same.email) = lower("registrations"."email"))`,
      createdAt: registrations.createdAt,
    })
    .from(registrations)
    .leftJoin(users, eq(users.id, registrations.userId))
    .where(searchCondition(query))
    .orderBy(asc(registrations.createdAt), asc(registrations.id));
}

export interface RegistrationCounts {
  total: number;
  bySize: Record<TshirtSize, number>;
  withTeam: number;
  withoutTeam: number;
  withAccount: number;
}

/** Totals over every registration (not the search): what the organisers order T-shirts from. */
export async function registrationCounts(): Promise<RegistrationCounts> {
  const db = getDb();
  const [sizes, [teamsRow], [accountsRow]] = await Promise.all([
    db.select({ size: registrations.tshirtSize, n: count() }).from(registrations).groupBy(registrations.tshirtSize),
    db
      .select({
        total: count(),
        withTeam: sql<number>`count(*) filter (where ${registrations.hasTeam})::int`,
      })
      .from(registrations),
    db.select({ n: count() }).from(registrations).where(isNotNull(registrations.userId)),
  ]);
  const bySize = Object.fromEntries(TSHIRT_SIZES.map((size) => [size, 0])) as Record<TshirtSize, number>;
  for (const row of sizes) bySize[row.size] = row.n;
  return {
    total: teamsRow.total,
    bySize,
    withTeam: teamsRow.withTeam,
    withoutTeam: teamsRow.total - teamsRow.withTeam,
    withAccount: accountsRow.n,
  };
}
