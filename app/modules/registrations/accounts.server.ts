/**
 * Turning registrations into participant accounts (beyond the original platform; decision 006), so organisers can
 * hand out logins. Each selected registration without an account gets a participant user, on the team
 * named in the registration (unless teams form themselves: then on none, docs/domain.md "Teams that form themselves") (an existing team matched without regard to case, or a new one) while that team
 * has room under the team size cap (a full team's registrations are listed back, left as they were). The
 * account takes the registration's address (one account an address: a registration whose address an account
 * already has is listed back) and language. Where mail is on, each is mailed a link to choose a password and
 * none is made; without mail, the generated passwords are returned once, to be shown and downloaded once, and
 * only their hashes are stored (docs/domain.md "Mail").
 */
import { randomInt } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Transaction } from "../../../db/client.ts";
import { anyOf } from "../../../db/any-of.ts";
import { registrations, teams, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudits, type Actor, type AuditEntry } from "../audit/audit.server.ts";
import { hashPassword, NO_PASSWORD } from "../auth/password.server.ts";
import { emailKey, normaliseEmail } from "../mail/addresses.ts";
import { dispatchMails, mailIsOn, queueMails } from "../mail/mails.server.ts";
import { messages } from "../messages.ts";
import { nameColumns, nameKey, withoutInvisibleCharacters } from "../names/names.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { readTeamFormation } from "../teams/self-formed.server.ts";
import { admitMembers, lockTeams, TeamFullError } from "../teams/team-size.server.ts";
import { ACCOUNTS_LOCK_KEY } from "../../../db/advisory-locks.ts";

export interface CreatedAccount {
  registrationId: number;
  fullName: string;
  email: string;
  userName: string;
  /** Plain text, returned once: never stored or logged. Null: a link to choose one was mailed instead. */
  password: string | null;
  teamName: string | null;
  teamCreated: boolean;
}

/** A registration left without an account: its team has no room under the team size cap, or its address has an account. */
export interface RefusedRegistration {
  registrationId: number;
  fullName: string;
  teamName: string | null;
  message: string;
}

export interface AccountsResult {
  created: CreatedAccount[];
  /** Selected registrations whose team is full: no account, the registration stays as it was. */
  refused: RefusedRegistration[];
  /** Selected registrations that already had an account (or no longer exist). */
  skipped: number;
}

// No 0/O, 1/l/I: passwords are read off a screen or paper. 4 groups of 4 from 55 symbols ≈ 92 bits.
const ALPHABET = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export function generatePassword(): string {
  const group = () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return [group(), group(), group(), group()].join("-");
}

/**
 * A login name from the person's name: "Zoë Müller-Smith" → "zoe.mullersmith". Names with no Latin
 * letters (e.g. Arabic) fall back to the email's local part, then to "participant".
 */
export function baseUserName(name: string, lastName: string, email: string): string {
  const slug = (value: string) =>
    value
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "");
  const fromName = [slug(name), slug(lastName)].filter(Boolean).join(".");
  const base = fromName || slug(email.split("@")[0] ?? "") || "participant";
  // Leave room for a "-NN" suffix under the schema's 200-character limit on names.
  return base.slice(0, 40);
}

/**
 * The first of base, base2, base3 … that is not the same name as any user's (case and look-alikes
 * ignored, as for every name: app/modules/names/names.ts), asked 50 at a time.
 */
export async function uniqueUserName(tx: Transaction, base: string): Promise<string> {
  for (let from = 1; ; from += 50) {
    const candidates = Array.from({ length: 50 }, (_, index) => (from + index === 1 ? base : `${base}${from + index}`));
    const taken = await tx.select({ key: users.nameKey }).from(users).where(anyOf(users.nameKey, candidates.map(nameKey)));
    const keys = new Set(taken.map((row) => row.key));
    const free = candidates.find((candidate) => !keys.has(nameKey(candidate)));
    if (free) return free;
  }
}

/** The team called `name` (case and look-alikes ignored, as for every name), created when missing. */
export async function teamNamed(tx: Transaction, name: string): Promise<{ id: number; name: string; created: boolean }> {
  // A registration made before names refused invisible characters may still hold some: they go.
  const columns = nameColumns(withoutInvisibleCharacters(name));
  const find = () => tx.select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.nameKey, columns.nameKey));
  const [existing] = await find();
  if (existing) return { ...existing, created: false };
  const [inserted] = await tx.insert(teams).values(columns).onConflictDoNothing().returning({ id: teams.id, name: teams.name });
  if (inserted) return { ...inserted, created: true };
  const [raced] = await find();
  return { ...raced, created: false };
}

// One key for pg_advisory_xact_lock (db/advisory-locks.ts): two admins creating accounts at once (from
// registrations or an import) take turns, so name choices never collide.

export async function createAccountsFromRegistrations(actor: Actor, ids: number[]): Promise<AccountsResult & { linksMailed: boolean }> {
  const wanted = [...new Set(ids)];
  const linksMailed = mailIsOn();
  if (!wanted.length) return { created: [], refused: [], skipped: 0, linksMailed };
  // Without mail, passwords. Hashing is the slow part (argon2): do it before the transaction holds any lock.
  const passwords = linksMailed ? wanted.map(() => null) : wanted.map(() => generatePassword());
  const hashes = await Promise.all(passwords.map((password) => (password === null ? NO_PASSWORD : hashPassword(password))));
  const mailIds: number[] = [];

  const touchedTeams = new Set<number>();
  const refused: RefusedRegistration[] = [];
  const created = await getDb().transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ACCOUNTS_LOCK_KEY})`);
    const rows = await tx
      .select()
      .from(registrations)
      .where(and(anyOf(registrations.id, wanted), isNull(registrations.userId)))
      .orderBy(registrations.id)
      .for("update");
    // While teams form themselves, the team a registration names is a wish the admins read, not a membership.
    const { selfFormedTeams } = await readTeamFormation(tx);
    // The teams named that exist, locked first and in id order, as every membership change locks them
    // (app/modules/teams/team-size.server.ts); a team made below is new to everyone else.
    const named = selfFormedTeams ? [] : rows.flatMap((row) => (row.hasTeam && row.teamName?.trim() ? [nameColumns(withoutInvisibleCharacters(row.teamName.trim())).nameKey] : []));
    if (named.length) await lockTeams(tx, (await tx.select({ id: teams.id }).from(teams).where(anyOf(teams.nameKey, named))).map((team) => team.id));
    const accounts: CreatedAccount[] = [];
    const audits: AuditEntry[] = [];
    for (const [index, registration] of rows.entries()) {
      // One account an address (the unique index, asked first so the refusal names the registration).
      const [holder] = await tx.select({ id: users.id }).from(users).where(eq(sql`lower(${users.email})`, emailKey(registration.email))).limit(1);
      if (holder) {
        refused.push({ registrationId: registration.id, fullName: `${registration.name} ${registration.lastName}`, teamName: registration.hasTeam ? registration.teamName : null, message: messages.mail.addressTaken });
        continue;
      }
      const team = !selfFormedTeams && registration.hasTeam && registration.teamName?.trim() ? await teamNamed(tx, registration.teamName.trim()) : null;
      if (team) {
        // The team size cap (app/modules/teams/team-size.server.ts): a full team leaves this one without an account.
        try {
          await admitMembers(tx, team.id);
        } catch (error) {
          if (!(error instanceof TeamFullError)) throw error;
          refused.push({ registrationId: registration.id, fullName: `${registration.name} ${registration.lastName}`, teamName: team.name, message: error.message });
          continue;
        }
      }
      const email = normaliseEmail(registration.email);
      const userName = await uniqueUserName(tx, baseUserName(registration.name, registration.lastName, registration.email));
      const [user] = await tx
        .insert(users)
        // The address was typed at /register by anyone: unconfirmed until a link mailed to it is used (docs/domain.md).
        .values({ ...nameColumns(userName), passwordHash: hashes[index], role: "participant", teamId: team?.id ?? null, email, emailConfirmed: false, language: registration.language })
        .returning({ id: users.id });
      if (linksMailed) mailIds.push(...(await queueMails(tx, [{ userId: user.id, kind: "set_password", toAddress: email, language: registration.language }])));
      await tx.update(registrations).set({ userId: user.id }).where(eq(registrations.id, registration.id));
      if (team?.created) audits.push({ kind: "team.created", teamId: team.id, subjectId: team.id, after: { name: team.name, registrationId: registration.id } });
      audits.push({
        kind: "user.created",
        userId: user.id,
        teamId: team?.id ?? null,
        subjectId: user.id,
        after: { name: userName, role: "participant", teamId: team?.id ?? null, email: registration.email, registrationId: registration.id, ...(linksMailed ? { linkMailed: true } : {}) },
      });
      if (team) {
        // A new member (and maybe a new team) changes the team's row on the board.
        await markStandingsStale(tx, team.id);
        touchedTeams.add(team.id);
      }
      accounts.push({
        registrationId: registration.id,
        fullName: `${registration.name} ${registration.lastName}`,
        email: registration.email,
        userName,
        password: passwords[index],
        teamName: team?.name ?? null,
        teamCreated: team?.created ?? false,
      });
    }
    await recordAudits(tx, actor, audits);
    return accounts;
  });
  await dispatchMails(mailIds);
  await requestStandingsRecompute(touchedTeams);
  return { created, refused, skipped: wanted.length - created.length - refused.length, linksMailed };
}
