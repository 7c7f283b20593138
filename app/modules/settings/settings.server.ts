import { asc, eq, getTableColumns } from "drizzle-orm";
import { eventSettings, gates, meals } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { sharedRead, type EventVersions } from "../event-data/shared.server.ts";
import { submissionsCloseOf, submissionsOpenAt } from "../submissions/close.ts";
import { DEFAULT_TIME_ZONE } from "./zoned-time.ts";

/**
 * Every column but the first-blood webhook's (its URL carries a chat's token, its secret signs posts): what
 * the pages share is never a place they could leak from (app/modules/webhooks/settings.server.ts reads them).
 */
const { firstBloodWebhookUrl: _url, firstBloodWebhookSecret: _secret, ...sharedColumns } = getTableColumns(eventSettings);

/**
 * The event's settings row (null before the final countdown is first set), read once per version when given
 * the request's (app/modules/event-data/shared.server.ts): what the participant pages show of it. Rules that
 * depend on it (submissions closing: app/modules/submissions/close.ts) are enforced in SQL by the writes themselves.
 */
export const eventSettingsRow = sharedRead(["event_settings"], async () => {
  const [row] = await getDb().select(sharedColumns).from(eventSettings).where(eq(eventSettings.id, 1)).limit(1);
  return row ?? null;
});

/** The event's time zone (docs/domain.md: an event setting, Africa/Algiers by default). */
export async function getEventTimeZone(versions: EventVersions | null = null): Promise<string> {
  return (await eventSettingsRow(versions))?.timeZone ?? DEFAULT_TIME_ZONE;
}

/** Everything the settings page edits. */
export async function readEventSettings() {
  const db = getDb();
  const [[settings], gateRows, mealRows] = await Promise.all([
    db.select().from(eventSettings).where(eq(eventSettings.id, 1)).limit(1),
    db.select().from(gates).orderBy(asc(gates.number)),
    db.select().from(meals).orderBy(asc(meals.at), asc(meals.id)),
  ]);
  return {
    timeZone: settings?.timeZone ?? DEFAULT_TIME_ZONE,
    finalAt: settings?.finalAt ?? null,
    submissionsCloseAt: settings?.submissionsCloseAt ?? null,
    flagWrongPerMinute: settings?.flagWrongPerMinute ?? 5,
    /** When submissions close in effect: the setting, else the final countdown. */
    closesAt: settings ? submissionsCloseOf(settings) : null,
    gates: gateRows,
    meals: mealRows,
  };
}

/** The event's wrong answers a minute for flag challenges (docs/domain.md "Flag challenges"); a change is audited. */
export async function updateFlagWrongPerMinute(actor: Actor, flagWrongPerMinute: number) {
  await getDb().transaction(async (tx) => {
    const [before] = await tx.select({ flagWrongPerMinute: eventSettings.flagWrongPerMinute }).from(eventSettings).where(eq(eventSettings.id, 1)).for("update");
    if (!before) throw new DomainError(messages.flagAnswers.settingNeedsFinal, { status: 400, field: "flagWrongPerMinute" });
    if (before.flagWrongPerMinute === flagWrongPerMinute) return;
    await tx.update(eventSettings).set({ flagWrongPerMinute }).where(eq(eventSettings.id, 1));
    await recordAudit(tx, actor, { kind: "event.flags", before, after: { flagWrongPerMinute } });
  });
}

/** A gate as an admin sets it: its texts (the Arabic beside the English: null, none) and its opening instant. */
export interface GateValues {
  title: string;
  description: string;
  titleAr?: string | null;
  descriptionAr?: string | null;
  opensAt: Date;
}

/**
 * Sets a gate's title, description (in English and, optionally, Arabic: docs/domain.md "Event content in two
 * languages") and opening instant; a change is audited (an unchanged save is not). Arabic not given is none.
 */
export async function updateGate(actor: Actor, number: number, given: GateValues) {
  const values = { ...given, titleAr: given.titleAr ?? null, descriptionAr: given.descriptionAr ?? null };
  await getDb().transaction(async (tx) => {
    const [before] = await tx
      .select({ title: gates.title, description: gates.description, titleAr: gates.titleAr, descriptionAr: gates.descriptionAr, opensAt: gates.opensAt })
      .from(gates)
      .where(eq(gates.number, number))
      .for("update");
    await tx
      .insert(gates)
      .values({ number, ...values })
      .onConflictDoUpdate({ target: gates.number, set: values });
    const same =
      before &&
      before.title === values.title &&
      before.description === values.description &&
      before.titleAr === values.titleAr &&
      before.descriptionAr === values.descriptionAr &&
      before.opensAt.getTime() === values.opensAt.getTime();
    // The record holds the Arabic only when there is some, before or after (a gate in English only reads as it did).
    const withArabic = Boolean(before?.titleAr || before?.descriptionAr || values.titleAr || values.descriptionAr);
    const arabic = (row: { titleAr: string | null; descriptionAr: string | null }) => (withArabic ? { titleAr: row.titleAr, descriptionAr: row.descriptionAr } : {});
    if (!same) {
      await recordAudit(tx, actor, {
        kind: "gate.changed",
        subjectId: number,
        before: before ? { gate: number, title: before.title, description: before.description, ...arabic(before), opensAt: before.opensAt } : null,
        after: { gate: number, title: values.title, description: values.description, ...arabic(values), opensAt: values.opensAt },
      });
    }
  });
}

export async function updateFinalAt(actor: Actor, finalAt: Date) {
  await getDb().transaction(async (tx) => {
    const [before] = await tx.select({ finalAt: eventSettings.finalAt }).from(eventSettings).where(eq(eventSettings.id, 1)).for("update");
    await tx.insert(eventSettings).values({ id: 1, finalAt }).onConflictDoUpdate({ target: eventSettings.id, set: { finalAt } });
    if (before?.finalAt.getTime() !== finalAt.getTime()) await recordAudit(tx, actor, { kind: "event.final", before: before ?? null, after: { finalAt } });
  });
}

/**
 * Sets when submissions close; null closes them at the final countdown's instant. False when the event
 * has no settings yet (the final countdown is set first).
 */
export async function updateSubmissionsCloseAt(actor: Actor, submissionsCloseAt: Date | null): Promise<boolean> {
  return getDb().transaction(async (tx) => {
    const [before] = await tx.select({ submissionsCloseAt: eventSettings.submissionsCloseAt }).from(eventSettings).where(eq(eventSettings.id, 1)).for("update");
    if (!before) return false;
    await tx.update(eventSettings).set({ submissionsCloseAt }).where(eq(eventSettings.id, 1));
    if (before.submissionsCloseAt?.getTime() !== submissionsCloseAt?.getTime()) {
      await recordAudit(tx, actor, { kind: "event.submissions-close", before, after: { submissionsCloseAt } });
    }
    return true;
  });
}

/** When teams stop sending answers, as pages and the API show it. */
export interface SubmissionsWindow {
  /** The instant (ISO); null while the event has no settings (then they never close). */
  closesAt: string | null;
  /** True when the instant is the final countdown's (no "submissions close" setting). */
  fromFinal: boolean;
  /** Still open by server time. */
  open: boolean;
  timeZone: string;
}

/**
 * When submissions close and whether they still are open, as pages and the API show it: the rule's
 * (app/modules/submissions/close.ts), which assertCanSubmit applies in SQL as it saves.
 */
export async function getSubmissionsWindow(now = new Date(), versions: EventVersions | null = null): Promise<SubmissionsWindow> {
  const row = await eventSettingsRow(versions);
  if (!row) return { closesAt: null, fromFinal: true, open: true, timeZone: DEFAULT_TIME_ZONE };
  const at = submissionsCloseOf(row);
  return { closesAt: at.toISOString(), fromFinal: !row.submissionsCloseAt, open: submissionsOpenAt(at, now), timeZone: row.timeZone };
}

export async function addMeal(actor: Actor, label: string, at: Date) {
  await getDb().transaction(async (tx) => {
    const [meal] = await tx.insert(meals).values({ label, at }).returning({ id: meals.id });
    await recordAudit(tx, actor, { kind: "meal.added", subjectId: meal.id, after: { label, at } });
  });
}

export async function removeMeal(actor: Actor, id: number) {
  await getDb().transaction(async (tx) => {
    const [meal] = await tx.delete(meals).where(eq(meals.id, id)).returning({ label: meals.label, at: meals.at });
    if (meal) await recordAudit(tx, actor, { kind: "meal.removed", subjectId: id, before: meal });
  });
}
