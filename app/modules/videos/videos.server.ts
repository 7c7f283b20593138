import { eq } from "drizzle-orm";
import { eventSettings } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import type { EventVersions } from "../event-data/shared.server.ts";
import { eventSettingsRow } from "../settings/settings.server.ts";

/** The home page videos and the event's time zone (for the meal card's clock). */
export async function getHomeSettings(versions: EventVersions | null = null): Promise<{ videos: string[]; timeZone: string }> {
  const row = await eventSettingsRow(versions);
  const videos = [row?.video1, row?.video2].filter((url): url is string => Boolean(url?.trim()));
  return { videos, timeZone: row?.timeZone ?? "Africa/Algiers" };
}

/** The two home videos as stored (the original platform's GET /videos: video1, video2). */
export async function getVideos(): Promise<{ video1: string | null; video2: string | null }> {
  const row = await eventSettingsRow(null);
  return { video1: row?.video1 ?? null, video2: row?.video2 ?? null };
}

/** The final countdown's target, or null before settings exist. */
export async function getFinalAt(versions: EventVersions | null = null): Promise<string | null> {
  const row = await eventSettingsRow(versions);
  return row ? row.finalAt.toISOString() : null;
}

/** Saves the home videos that were given; an empty one keeps the stored URL. */
export async function updateVideos(actor: Actor, input: { video1?: string; video2?: string }) {
  const set: { video1?: string; video2?: string } = {};
  if (input.video1) set.video1 = input.video1;
  if (input.video2) set.video2 = input.video2;
  if (Object.keys(set).length === 0) return;
  await getDb().transaction(async (tx) => {
    const [before] = await tx.select({ video1: eventSettings.video1, video2: eventSettings.video2 }).from(eventSettings).where(eq(eventSettings.id, 1)).for("update");
    if (!before) throw new Error("event settings missing");
    await tx.update(eventSettings).set(set).where(eq(eventSettings.id, 1));
    const after = { ...before, ...set };
    if (after.video1 !== before.video1 || after.video2 !== before.video2) await recordAudit(tx, actor, { kind: "videos.changed", before, after });
  });
}
