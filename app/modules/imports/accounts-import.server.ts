/**
 * Teams and users from a CSV file (decision 009): `name, role, team, password` (team for
 * participants; password optional, generated when empty). A preview checks every row with the user
 * form's rules and against the database; the import checks again and writes every row in one
 * transaction, or nothing. Generated passwords are returned once, like accounts from registrations
 * (decision 006): hashed before the transaction, never stored or logged in clear.
 */
import { inArray, sql } from "drizzle-orm";
import type { Queryable } from "../../../db/client.ts";
import { teams, users } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { hashPassword } from "../auth/password.server.ts";
import type { Role } from "../auth/access.ts";
import { messages } from "../messages.ts";
import { ACCOUNTS_LOCK, generatePassword, teamNamed } from "../registrations/accounts.server.ts";
import { markStandingsStale, requestStandingsRecompute } from "../standings/outbox.server.ts";
import { isUniqueViolation } from "../teams/teams.server.ts";
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
  passwordGiven: boolean;
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
  /** Generated here, returned once; null when the file gave the password. */
  generatedPassword: string | null;
}

export type AccountsImportResult = { ok: true; accounts: ImportedAccount[] } | { ok: false; check: AccountsCheck };

/** The name keys (app/modules/names/names.ts) among `keys` that a user already has. */
async function takenNames(db: Queryable, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db.select({ key: users.nameKey }).from(users).where(inArray(users.nameKey, keys));
  return new Set(rows.map((row) => row.key));
}

async function knownTeams(db: Queryable, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db.select({ key: teams.nameKey }).from(teams).where(inArray(teams.nameKey, keys));
  return new Set(rows.map((row) => row.key));
}

/** Every row checked: the form's rules, names unique in the file and not taken in the database. */
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

  const existingTeams = await knownTeams(db, [...new Set(valid.flatMap(({ value }) => (value.team ? [nameKey(value.team)] : [])))]);
  const rows = valid.map(({ row, value }) => ({
    row,
    name: value.name,
    role: value.role,
    team: value.team ?? null,
    newTeam: Boolean(value.team && !existingTeams.has(nameKey(value.team))),
    passwordGiven: Boolean(value.password),
  }));
  return { check: { fileError: null, issues, rows }, valid };
}

const refused = (check: AccountsCheck) => Boolean(check.fileError || check.issues.length);

export async function previewAccountsImport(text: string): Promise<AccountsCheck> {
  return (await checkAccounts(text, getDb())).check;
}

class ImportRefused extends Error {
  constructor(public readonly check: AccountsCheck) {
    super("import refused");
  }
}

export async function importAccounts(actor: Actor, text: string): Promise<AccountsImportResult> {
  const before = await checkAccounts(text, getDb());
  if (refused(before.check)) return { ok: false, check: before.check };

  // Hashing is the slow part (argon2): do it before the transaction holds any lock.
  const passwords = before.valid.map(({ value }) => value.password ?? generatePassword());
  const hashes = await Promise.all(passwords.map((password) => hashPassword(password)));

  const touchedTeams = new Set<number>();
  try {
    await getDb().transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ACCOUNTS_LOCK})`);
      // Checked again under the lock: a user may have been created since the preview.
      const { check } = await checkAccounts(text, tx);
      if (refused(check)) throw new ImportRefused(check);
      const teamIds = new Map<string, number>();
      const teamsCreated: string[] = [];
      for (const team of new Set(before.valid.flatMap(({ value }) => (value.team ? [value.team] : [])))) {
        const key = nameKey(team);
        if (teamIds.has(key)) continue;
        const found = await teamNamed(tx, team);
        teamIds.set(key, found.id);
        if (found.created) teamsCreated.push(found.name);
      }
      const inserted = await tx.insert(users).values(
        before.valid.map(({ value }, index) => ({
          ...nameColumns(value.name),
          role: value.role,
          teamId: value.team ? (teamIds.get(nameKey(value.team)) ?? null) : null,
          passwordHash: hashes[index],
        })),
      ).returning({ id: users.id, name: users.name, role: users.role, teamId: users.teamId });
      // The import is one change, one record: who came in, as what, in which team (never a password).
      await recordAudit(tx, actor, { kind: "import.accounts", after: { created: inserted.length, teamsCreated, users: inserted } });
      for (const teamId of new Set(teamIds.values())) {
        await markStandingsStale(tx, teamId);
        touchedTeams.add(teamId);
      }
    });
  } catch (error) {
    if (error instanceof ImportRefused) return { ok: false, check: error.check };
    // A user created by someone else between the check and the insert (no lock on the Users page).
    if (NAME_CONSTRAINTS.users.some((constraint) => isUniqueViolation(error, constraint))) return { ok: false, check: { ...before.check, fileError: messages.dashboard.userNameTaken } };
    throw error;
  }
  for (const teamId of touchedTeams) await requestStandingsRecompute(teamId);
  return {
    ok: true,
    accounts: before.valid.map(({ value }, index) => ({
      name: value.name,
      role: value.role,
      team: value.team ?? null,
      generatedPassword: value.password ? null : passwords[index],
    })),
  };
}
