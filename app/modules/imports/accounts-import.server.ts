/**
 * Teams and users from a CSV file (decision 009): `name, role, team, password, division, email, language`
 * (team for participants; password optional: when empty, a row with an address is mailed a link to choose one
 * where mail is on, any other gets one generated; division optional, the team's; email unique). A preview checks
 * every row with the user form's rules and against the database (names, the event's divisions, room in each
 * team under the team size cap); the import checks again and writes every row in one transaction, or
 * nothing: one refused row refuses the file. Generated passwords are returned once, like accounts from registrations
 * (decision 006): hashed before the transaction, never stored or logged in clear.
 */
import { eq, sql } from "drizzle-orm";
import type { Queryable, Transaction } from "../../../db/client.ts";
import { anyOf } from "../../../db/any-of.ts";
import { teams, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { hashPassword, NO_PASSWORD } from "../auth/password.server.ts";
import { emailKey } from "../mail/addresses.ts";
import { dispatchMails, mailIsOn, queueMails } from "../mail/mails.server.ts";
import type { Role } from "../auth/access.ts";
import { divisionOnList, readDivisions } from "../divisions/divisions.server.ts";
import { divisionNamed } from "../divisions/schema.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { generatePassword, teamNamed } from "../registrations/accounts.server.ts";
import { ACCOUNTS_LOCK_KEY } from "../../../db/advisory-locks.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { admitMembers, fitsInTeam, lockTeams, memberCounts, readTeamSizeCap } from "../teams/team-size.server.ts";
import { isUniqueViolation } from "../../../db/unique-violation.ts";
import { NAME_CONSTRAINTS, nameColumns, nameKey } from "../names/names.ts";
import { readCsv } from "./read-file.server.ts";
import { addIssue, validateRows, type ImportIssue } from "./rows.ts";
import { ACCOUNT_COLUMNS, AccountRowSchema, MAX_IMPORT_ROWS, type AccountRowValues } from "./schema.ts";

export interface AccountPreviewRow {
  row: number;
  name: string;
  role: Role;
  team: string | null;
  /** No team of that name (any case) exists yet: the import creates it. */
  newTeam: boolean;
  /** The division the row puts its team in, as the event's list spells it; null: the team's stays. */
  division: string | null;
  passwordGiven: boolean;
  /** The row's address, if any. */
  email: string | null;
  /** No password given: a link to choose one is mailed to the address (mail on), else one is generated. */
  linkMailed: boolean;
}

export interface AccountsCheck {
  /** The file as a whole could not be used (columns, size, syntax). */
  fileError: string | null;
  issues: ImportIssue[];
  rows: AccountPreviewRow[];
}

export interface ImportedAccount {
  name: string;
  role: Role;
  team: string | null;
  /** Generated here, returned once; null when the file gave the password or a link was mailed. */
  generatedPassword: string | null;
  /** The address a link to choose a password was mailed to, if one was. */
  linkMailedTo: string | null;
}

export type AccountsImportResult = { ok: true; accounts: ImportedAccount[] } | { ok: false; check: AccountsCheck };

/** The name keys (app/modules/names/names.ts) among `keys` that a user already has. */
async function takenNames(db: Queryable, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db.select({ key: users.nameKey }).from(users).where(anyOf(users.nameKey, keys));
  return new Set(rows.map((row) => row.key));
}

/** The addresses (compared as emailKey) among `keys` that a user already has. */
async function takenEmails(db: Queryable, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db.select({ key: sql<string>`lower(${users.email})` }).from(users).where(sql`lower(${users.email}) = any(${sql.param(keys)}::text[])`);
  return new Set(rows.map((row) => row.key));
}

async function knownTeams(db: Queryable, keys: string[]): Promise<Map<string, { id: number; name: string }>> {
  if (!keys.length) return new Map();
  const rows = await db.select({ id: teams.id, name: teams.name, key: teams.nameKey }).from(teams).where(anyOf(teams.nameKey, keys));
  return new Map(rows.map((row) => [row.key, { id: row.id, name: row.name }]));
}

/**
 * Every row checked: the form's rules, names unique in the file and not taken in the database, a division
 * of the event's list (one per team across the file), and room in each team under the team size cap (rows
 * past it, in file order, are refused with the cap's message).
 */
async function checkAccounts(text: string, db: Queryable): Promise<{ check: AccountsCheck; valid: Array<{ row: number; value: AccountRowValues }> }> {
  const read = readCsv(text, ACCOUNT_COLUMNS, MAX_IMPORT_ROWS);
  if (!read.ok) return { check: { fileError: read.error, issues: [], rows: [] }, valid: [] };
  const { valid, issues } = validateRows(read.rows, AccountRowSchema);

  // Names are logins: unique without regard to case or look-alikes, within the file and against the database.
  const firstRowOf = new Map<string, number>();
  for (const { row, fields } of read.rows) {
    const key = nameKey(String(fields.name ?? ""));
    const first = firstRowOf.get(key);
    if (!key) continue;
    if (first === undefined) firstRowOf.set(key, row);
    else addIssue(issues, row, `name: ${messages.imports.duplicateInFile(first)}`);
  }
  const taken = await takenNames(db, [...firstRowOf.keys()]);
  for (const { row, value } of valid) if (taken.has(nameKey(value.name))) addIssue(issues, row, `name: ${messages.dashboard.userNameTaken}`);

  // Addresses: one user each, within the file and against the database, without regard to case.
  const firstRowOfAddress = new Map<string, number>();
  for (const { row, value } of valid) {
    if (!value.email) continue;
    const first = firstRowOfAddress.get(emailKey(value.email));
    if (first === undefined) firstRowOfAddress.set(emailKey(value.email), row);
    else addIssue(issues, row, `email: ${messages.imports.duplicateAddressInFile(first)}`);
  }
  const takenAddresses = await takenEmails(db, [...firstRowOfAddress.keys()]);
  for (const { row, value } of valid) if (value.email && takenAddresses.has(emailKey(value.email))) addIssue(issues, row, `email: ${messages.mail.addressTaken}`);

  const teamKeys = [...new Set(valid.flatMap(({ value }) => (value.team ? [nameKey(value.team)] : [])))];
  const [existingTeams, divisions, cap] = await Promise.all([knownTeams(db, teamKeys), readDivisions(db), readTeamSizeCap(db)]);
  const members = await memberCounts(db, [...existingTeams.values()].map((team) => team.id));

  // A team's division: the first row that names one; a later row naming another is refused.
  const divisionOf = new Map<string, { division: string; row: number }>();
  const rowDivision = new Map<number, string>();
  for (const { row, value } of valid) {
    if (!value.division || !value.team) continue;
    const division = divisionNamed(divisions, value.division);
    if (division === null) {
      addIssue(issues, row, `division: ${messages.divisions.unknown(divisions)}`);
      continue;
    }
    const key = nameKey(value.team);
    const first = divisionOf.get(key);
    if (first && first.division !== division) addIssue(issues, row, `division: ${messages.divisions.conflict(value.team, first.division, first.row)}`);
    else if (!first) divisionOf.set(key, { division, row });
    rowDivision.set(row, division);
  }

  // Room in each team, row by row in file order (the rule: app/modules/teams/team-size.server.ts).
  const joining = new Map<string, number>();
  for (const { row, value } of valid) {
    if (!value.team) continue;
    const key = nameKey(value.team);
    const existing = existingTeams.get(key);
    const already = (existing ? (members.get(existing.id) ?? 0) : 0) + (joining.get(key) ?? 0);
    if (!fitsInTeam(already, 1, cap)) addIssue(issues, row, `team: ${messages.teamSize.full(existing?.name ?? value.team, cap)}`);
    joining.set(key, (joining.get(key) ?? 0) + 1);
  }

  const rows = valid.map(({ row, value }) => ({
    row,
    name: value.name,
    role: value.role,
    team: value.team ?? null,
    newTeam: Boolean(value.team && !existingTeams.has(nameKey(value.team))),
    division: rowDivision.get(row) ?? null,
    passwordGiven: Boolean(value.password),
    email: value.email ?? null,
    linkMailed: !value.password && Boolean(value.email) && mailIsOn(),
  }));
  return { check: { fileError: null, issues, rows }, valid };
}

const refused = (check: AccountsCheck) => Boolean(check.fileError || check.issues.length);

export async function previewAccountsImport(text: string): Promise<AccountsCheck> {
  return (await checkAccounts(text, getDb())).check;
}

/** Puts teams in the divisions the file names (checked against the event's list under its lock); returns what moved. */
async function setDivisions(tx: Transaction, wanted: Map<number, string>): Promise<Array<{ teamId: number; team: string; before: string | null; after: string }>> {
  const moved: Array<{ teamId: number; team: string; before: string | null; after: string }> = [];
  for (const [teamId, typed] of wanted) {
    const division = await divisionOnList(tx, typed);
    const [before] = await tx.select({ name: teams.name, division: teams.division }).from(teams).where(eq(teams.id, teamId));
    if (!before || before.division === division || division === null) continue;
    await tx.update(teams).set({ division }).where(eq(teams.id, teamId));
    moved.push({ teamId, team: before.name, before: before.division, after: division });
  }
  return moved;
}

class ImportRefused extends Error {
  constructor(public readonly check: AccountsCheck) {
    super("import refused");
  }
}

export async function importAccounts(actor: Actor, text: string): Promise<AccountsImportResult> {
  const before = await checkAccounts(text, getDb());
  if (refused(before.check)) return { ok: false, check: before.check };

  // A row with an address and no password is mailed a link (mail on); any other without one gets one generated.
  const mailOn = mailIsOn();
  const mailed = before.valid.map(({ value }) => !value.password && Boolean(value.email) && mailOn);
  const passwords = before.valid.map(({ value }, index) => (mailed[index] ? null : (value.password ?? generatePassword())));
  // Hashing is the slow part (argon2): do it before the transaction holds any lock.
  const hashes = await Promise.all(passwords.map((password) => (password === null ? NO_PASSWORD : hashPassword(password))));
  let mailIds: number[] = [];

  const touchedTeams = new Set<number>();
  try {
    await getDb().transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ACCOUNTS_LOCK_KEY})`);
      // Checked again under the lock: a user may have been created since the preview.
      const { check } = await checkAccounts(text, tx);
      if (refused(check)) throw new ImportRefused(check);
      const teamIds = new Map<string, number>();
      const teamsCreated: string[] = [];
      const joining = new Map<number, number>();
      const divisionWanted = new Map<number, string>();
      const divisionOfRow = new Map(check.rows.map((preview) => [preview.row, preview.division]));
      for (const { row, value } of before.valid) {
        if (!value.team) continue;
        const key = nameKey(value.team);
        let teamId = teamIds.get(key);
        if (teamId === undefined) {
          const found = await teamNamed(tx, value.team);
          teamIds.set(key, (teamId = found.id));
          if (found.created) teamsCreated.push(found.name);
        }
        joining.set(teamId, (joining.get(teamId) ?? 0) + 1);
        const division = divisionOfRow.get(row);
        if (division) divisionWanted.set(teamId, division);
      }
      // The one rule of the cap, authoritative under each team's lock (the Users page takes no import lock).
      // In team id order, as every membership change locks teams (app/modules/teams/team-size.server.ts); a refusal
      // still names the file's first full team: the whole file is refused either way.
      await lockTeams(tx, [...joining.keys()]);
      for (const [teamId, adding] of joining) await admitMembers(tx, teamId, adding, "team");
      const divisionsSet = await setDivisions(tx, divisionWanted);
      const inserted = await tx.insert(users).values(
        before.valid.map(({ value }, index) => ({
          ...nameColumns(value.name),
          role: value.role,
          teamId: value.team ? (teamIds.get(nameKey(value.team)) ?? null) : null,
          passwordHash: hashes[index],
          email: value.email ?? null,
          // An address in the admin's file is the admin's word: confirmed (docs/domain.md).
          emailConfirmed: Boolean(value.email),
          language: value.language ?? "en",
        })),
      ).returning({ id: users.id, name: users.name, role: users.role, teamId: users.teamId, email: users.email, language: users.language });
      mailIds = await queueMails(
        tx,
        inserted.flatMap((user, index) => (mailed[index] && user.email ? [{ userId: user.id, kind: "set_password" as const, toAddress: user.email, language: user.language }] : [])),
      );
      // The import is one change, one record: who came in, as what, in which team (never a password), and
      // the divisions it moved teams to.
      await recordAudit(tx, actor, { kind: "import.accounts", after: { created: inserted.length, teamsCreated, users: inserted, ...(divisionsSet.length ? { divisionsSet } : {}) } });
      for (const teamId of new Set(teamIds.values())) {
        await markStandingsStale(tx, teamId);
        touchedTeams.add(teamId);
      }
    });
  } catch (error) {
    if (error instanceof ImportRefused) return { ok: false, check: error.check };
    // A member added on the Users page, or a division removed, between the check and the import: checked
    // again now that it is committed, so the rows it refuses say so; the refusal itself if none does.
    if (error instanceof DomainError) {
      const { check } = await checkAccounts(text, getDb());
      return { ok: false, check: refused(check) ? check : { ...check, fileError: error.message } };
    }
    // A user created by someone else between the check and the insert (no lock on the Users page).
    if (NAME_CONSTRAINTS.users.some((constraint) => isUniqueViolation(error, constraint))) return { ok: false, check: { ...before.check, fileError: messages.dashboard.userNameTaken } };
    if (isUniqueViolation(error, "users_email_lower_key")) return { ok: false, check: { ...before.check, fileError: messages.mail.addressTaken } };
    throw error;
  }
  await dispatchMails(mailIds);
  await requestStandingsRecompute(touchedTeams);
  return {
    ok: true,
    accounts: before.valid.map(({ value }, index) => ({
      name: value.name,
      role: value.role,
      team: value.team ?? null,
      generatedPassword: value.password || mailed[index] ? null : passwords[index],
      linkMailedTo: mailed[index] ? (value.email ?? null) : null,
    })),
  };
}
