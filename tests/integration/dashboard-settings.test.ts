import { parseWithZod } from "@conform-to/zod/v4";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { eventSettings, gates } from "../../db/schema.ts";
import { messages } from "../../app/modules/messages.ts";
import { GateSettingsSchema, VideosSchema } from "../../app/modules/settings/schema.ts";
import { addMeal, readEventSettings, removeMeal, updateGate, updateVideos } from "../../app/modules/settings/settings.server.ts";
import { zonedLocalToUtc } from "../../app/modules/settings/zoned-time.ts";
import { getDb } from "../../app/utils/db.server.ts";
import { ensureEventSettings } from "../support/fixtures.ts";

const m = messages.dashboard;
const form = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(entries)) data.append(key, value);
  return data;
};

describe("settings validation", () => {
  it("videos: at least one URL, trimmed, empty ones not sent", () => {
    const none = parseWithZod(form({ intent: "videos", video1: "", video2: "  " }), { schema: VideosSchema });
    expect(none.status).toBe("error");
    const one = parseWithZod(form({ intent: "videos", video1: "", video2: "" }), { schema: VideosSchema });
    expect(one.status === "error" && one.error?.[""]).toEqual([m.videosRequired]);
    const ok = parseWithZod(form({ intent: "videos", video1: " https://youtu.be/abc ", video2: "" }), { schema: VideosSchema });
    expect(ok.status === "success" && ok.value).toEqual({ intent: "videos", video1: "https://youtu.be/abc" });
    const bad = parseWithZod(form({ intent: "videos", video1: "not a url" }), { schema: VideosSchema });
    expect(bad.status === "error" && bad.error?.video1).toEqual([m.urlInvalid]);
  });

  it("gates need a title, a description and an instant", () => {
    const result = parseWithZod(form({ intent: "gate", number: "2" }), { schema: GateSettingsSchema });
    expect(result.status === "error" && result.error).toMatchObject({ title: [m.titleRequired], description: [m.descriptionMissing], opensAt: [m.instantRequired] });
  });
});

describe("settings storage", () => {
  it("stores gates in UTC from the event's wall clock, videos partially, meals add and remove", async () => {
    await ensureEventSettings();
    await getDb().update(eventSettings).set({ video1: "https://old/1", video2: "https://old/2" }).where(eq(eventSettings.id, 1));
    await updateGate(1, { title: "The Gate of Dawn", description: "d", opensAt: zonedLocalToUtc("2025-04-24T19:00", "Africa/Algiers")! });
    const [gate] = await getDb().select().from(gates).where(eq(gates.number, 1));
    expect(gate.opensAt.toISOString()).toBe("2025-04-24T18:00:00.000Z");

    await updateVideos({ video2: "https://new/2" });
    const settings = await readEventSettings();
    expect(settings).toMatchObject({ video1: "https://old/1", video2: "https://new/2", timeZone: "Africa/Algiers" });

    await addMeal("Dinner", new Date("2025-04-24T19:00:00Z"));
    const [meal] = (await readEventSettings()).meals;
    expect(meal.label).toBe("Dinner");
    await removeMeal(meal.id);
    expect((await readEventSettings()).meals).toHaveLength(0);
  });
});
