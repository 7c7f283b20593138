/**
 * The import's two steps (Dashboard → Import), for either kind of file: the preview checks the file and
 * lists what it would write; the import checks it again and writes it, all or nothing. Accounts given no
 * password get one generated, shown once and offered as a CSV of logins.
 */
import type { Actor } from "../audit/audit.server.ts";
import { csvDataUrl, csvFileName, toCsv } from "../exports/csv-format.server.ts";
import { importAccounts, previewAccountsImport, type AccountsCheck, type ImportedAccount } from "./accounts-import.server.ts";
import { importChallenges, previewChallengesImport, type ChallengesCheck } from "./challenges-import.server.ts";
import type { ImportKind } from "./schema.ts";

export type ImportCheck = AccountsCheck | ChallengesCheck;

/** The preview page: the check, and the file's text it posts back for the import. */
export type ImportPreview = { step: "preview"; kind: ImportKind; check: ImportCheck; content: string; fileName: string };

export type ImportDone =
  | { step: "done"; kind: "accounts"; accounts: ImportedAccount[]; csv: string | null; csvName: string }
  | { step: "done"; kind: "challenges"; created: number };

/** A check that refuses the whole file (no rows read). */
export const fileRefused = (fileError: string): ImportCheck => ({ fileError, issues: [], rows: [] });

export async function previewImport(kind: ImportKind, content: string, fileName: string): Promise<ImportCheck> {
  return kind === "accounts" ? previewAccountsImport(content) : previewChallengesImport(content, fileName);
}

/** Writes the file's rows; a file that no longer passes the check writes nothing and answers the check. */
export async function runImport(actor: Actor, kind: ImportKind, content: string, fileName: string): Promise<{ ok: true; done: ImportDone } | { ok: false; check: ImportCheck }> {
  if (kind === "challenges") {
    const result = await importChallenges(actor, content, fileName);
    return result.ok ? { ok: true, done: { step: "done", kind, created: result.created } } : result;
  }
  const result = await importAccounts(actor, content);
  if (!result.ok) return result;
  const generated = result.accounts.filter((account) => account.generatedPassword);
  const csv = generated.length
    ? csvDataUrl(toCsv(["Team", "Username", "Role", "Password"], generated.map((account) => [account.team, account.name, account.role, account.generatedPassword])))
    : null;
  return { ok: true, done: { step: "done", kind, accounts: result.accounts, csv, csvName: csvFileName("imported-logins") } };
}
