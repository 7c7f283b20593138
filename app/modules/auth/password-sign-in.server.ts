/**
 * Passwords off for participants (docs/domain.md "Passwords off for participants"): an event whose people sign
 * in with the organisers' identity provider may turn password sign-in off for participants. Admins, judges and
 * mentors always keep it (the provider never signs staff in: decision 046). Off only while a provider is
 * configured: turning it off without one is refused, and a stored "off" whose provider was since removed from
 * the environment counts as on, so no participant is ever left with no way in.
 */
import { eq } from "drizzle-orm";
import { eventSettings } from "../../../db/schema.ts";
import type { Queryable } from "../../../db/client.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import type { Role } from "./access.ts";
import { oidcSettings } from "./oidc.server.ts";

const m = messages.passwordSignIn;

/** What the setting says, and whether it is in force (stored off and a provider configured). */
export interface ParticipantPasswords {
  /** The admin's choice, as stored. */
  stored: boolean;
  /** False: participants sign in through the provider only. */
  on: boolean;
  /** The provider's button label, when one is configured. */
  providerLabel: string | null;
  /** The provider's label while participants sign in through it only (`on` false), else null: what pages say. */
  providerOnly: string | null;
}

export async function readParticipantPasswords(db: Queryable = getDb()): Promise<ParticipantPasswords> {
  const [row] = await db.select({ on: eventSettings.participantPasswords }).from(eventSettings).where(eq(eventSettings.id, 1));
  const stored = row?.on ?? true;
  const providerLabel = oidcSettings()?.label ?? null;
  const on = stored || providerLabel === null;
  return { stored, on, providerLabel, providerOnly: on ? null : providerLabel };
}

/**
 * The refusal for a password sign-in (or a password link) of an account with this role, or null when it may go
 * ahead. Asked only once the password was checked (or the link read): the sentence names participants, so it is
 * shown only to someone who holds the account's password or link, never to a guesser of names.
 */
export async function passwordRefusalFor(role: Role, db: Queryable = getDb()): Promise<DomainError | null> {
  if (role !== "participant") return null;
  return participantPasswordRefusal(await readParticipantPasswords(db));
}

/** The refusal of a participant's password under this setting (passwordRefusalFor, the setting read already). */
export function participantPasswordRefusal(setting: ParticipantPasswords): DomainError | null {
  return setting.on ? null : new DomainError(m.participantsUseProvider(setting.providerLabel ?? ""), { status: 403 });
}

/** Settings → Sign-in: turns password sign-in for participants on or off; audited when it changed. */
export async function saveParticipantPasswords(actor: Actor, on: boolean): Promise<string> {
  if (!on && !oidcSettings()) throw new DomainError(m.needsProvider, { status: 409, field: "participantPasswords" });
  await getDb().transaction(async (tx) => {
    const [before] = await tx.select({ on: eventSettings.participantPasswords }).from(eventSettings).where(eq(eventSettings.id, 1)).for("update");
    if (!before) throw new DomainError(m.needsFinal, { status: 400, field: "participantPasswords" });
    if (before.on === on) return;
    await tx.update(eventSettings).set({ participantPasswords: on }).where(eq(eventSettings.id, 1));
    await recordAudit(tx, actor, { kind: "event.participant-passwords", before: { participantPasswords: before.on }, after: { participantPasswords: on } });
  });
  return on ? m.savedOn : m.savedOff;
}
