/**
 * Dashboard → Registrations: the list (searched by `q`, duplicates of an address marked) with its counts, and
 * participant accounts created for the selected registrations: each mailed a link to choose a password, or,
 * where mail is off, their passwords answered once (never stored) with a CSV of the logins.
 */
import type { Actor } from "../audit/audit.server.ts";
import { csvFileName } from "../exports/csv-format.server.ts";
import { createAccountsFromRegistrations } from "./accounts.server.ts";
import { accountsCsvDataUrl } from "./csv.server.ts";
import { readParticipantPasswords } from "../auth/password-sign-in.server.ts";
import { mailIsOn } from "../mail/mails.server.ts";
import { readTeamFormation } from "../teams/self-formed.server.ts";
import { listRegistrations, registrationCounts } from "./registrations.server.ts";

export async function readRegistrationsPage(q: string) {
  const [rows, counts, formation, passwords] = await Promise.all([listRegistrations(q), registrationCounts(), readTeamFormation(), readParticipantPasswords()]);
  return {
    q,
    counts,
    // Teams form themselves: a registration's team is a wish shown here, and accounts are made on no team.
    teamWishes: formation.selfFormedTeams,
    // Accounts made now get a mailed link (mail on) or a password shown once (off): the page says which.
    mailOn: mailIsOn(),
    // Passwords off for participants: the mailed link confirms the address instead (docs/domain.md); the provider's label.
    providerOnly: passwords.providerOnly,
    rows: rows.map((row) => ({
      id: row.id,
      name: `${row.name} ${row.lastName}`,
      email: row.email,
      skill: row.skill,
      teamName: row.hasTeam ? row.teamName : null,
      tshirtSize: row.tshirtSize,
      userName: row.userName,
      // The address is registered this many times (1: once); the list marks the duplicates.
      sameAddress: row.sameAddress,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

export type RegistrationsPage = Awaited<ReturnType<typeof readRegistrationsPage>>;

/** Creates the accounts; what the page shows of them once. */
export async function createRegistrationAccounts(actor: Actor, ids: number[]) {
  const { created, refused, skipped, linksMailed } = await createAccountsFromRegistrations(actor, ids);
  const passwords = await readParticipantPasswords();
  return {
    created: created.map(({ registrationId, fullName, email, userName, password, teamName, teamCreated }) => ({
      registrationId,
      fullName,
      email,
      userName,
      password,
      teamName,
      teamCreated,
    })),
    refused,
    skipped,
    linksMailed,
    // The links mailed confirm the addresses (passwords off for participants), not choose passwords.
    linksConfirm: linksMailed && !passwords.on,
    // Without mail only: the passwords, once. With it, nothing to export (no password exists).
    csv: !linksMailed && created.length ? accountsCsvDataUrl(created.map((account) => ({ ...account, password: account.password ?? "" }))) : null,
    fileName: csvFileName("accounts"),
  };
}

export type CreatedAccounts = Awaited<ReturnType<typeof createRegistrationAccounts>>;
