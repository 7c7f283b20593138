import { parseWithZod } from "@conform-to/zod/v4";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { eventSettings, gates } from "../../db/schema.ts";
import { messages } from "../../app/modules/messages.ts";
import { AnnouncementSchema } from "../../app/modules/announcements/schema.ts";
import { NotificationSchema } from "../../app/modules/notifications/schema.ts";
import { FinalSettingsSchema, GateSettingsSchema, MealAddSchema } from "../../app/modules/settings/schema.ts";
import { addMeal, readEventSettings, removeMeal, updateGate } from "../../app/modules/settings/settings.server.ts";
import { DashboardVideosSchema, WelcomeVideosSchema } from "../../app/modules/videos/schema.ts";
import { getHomeSettings, updateVideos } from "../../app/modules/videos/videos.server.ts";
import { zonedLocalToUtc } from "../../app/modules/settings/zoned-time.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { ensureEventSettings, testAdmin } from "../support/fixtures.ts";


const m = messages.dashboard;
const form = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(entries)) data.append(key, value);
  return data;
};

describe("settings validation", () => {
  it("videos: at least one URL (each form with its own text), trimmed, empty ones not sent", () => {
    const none = parseWithZod(form({ intent: "videos", video1: "", video2: "  " }), { schema: DashboardVideosSchema });
    expect(none.status === "error" && none.error?.[""]).toEqual(["Please fill at least one video URL to update."]);
    const onWelcome = parseWithZod(form({ intent: "videos", video1: "", video2: "" }), { schema: WelcomeVideosSchema });
    expect(onWelcome.status === "error" && onWelcome.error?.[""]).toEqual(["Please provide at least one video URL."]);
    const ok = parseWithZod(form({ intent: "videos", video1: " https://youtu.be/abc ", video2: "" }), { schema: DashboardVideosSchema });
    expect(ok.status === "success" && ok.value).toEqual({ video1: "https://youtu.be/abc" });
    const bad = parseWithZod(form({ intent: "videos", video1: "not a url" }), { schema: DashboardVideosSchema });
    expect(bad.status === "error" && bad.error?.video1).toEqual([m.urlInvalid]);
  });

  it("the final countdown and meals need a date and time; meals a label", () => {
    const final = parseWithZod(form({ intent: "final", finalAt: "tomorrow" }), { schema: FinalSettingsSchema });
    expect(final.status === "error" && final.error?.finalAt).toEqual([m.instantRequired]);
    expect(parseWithZod(form({ intent: "final", finalAt: "2025-04-26T10:00" }), { schema: FinalSettingsSchema }).status).toBe("success");
    // A time that does not exist is refused with its own message, never rolled over into March or the next day.
    for (const impossible of ["2025-02-30T10:00", "2025-04-24T25:61", "2025-04-24T24:00"]) {
      const refused = parseWithZod(form({ intent: "final", finalAt: impossible }), { schema: FinalSettingsSchema });
      expect(refused.status === "error" && refused.error?.finalAt, impossible).toEqual([m.instantImpossible]);
      const gate = parseWithZod(form({ intent: "gate", number: "1", title: "t", description: "d", opensAt: impossible }), { schema: GateSettingsSchema });
      expect(gate.status === "error" && gate.error?.opensAt, impossible).toEqual([m.instantImpossible]);
      const meal = parseWithZod(form({ intent: "meal-add", label: "Lunch", at: impossible }), { schema: MealAddSchema });
      expect(meal.status === "error" && meal.error?.at, impossible).toEqual([m.instantImpossible]);
    }
    const meal = parseWithZod(form({ intent: "meal-add", label: " ", at: "" }), { schema: MealAddSchema });
    expect(meal.status === "error" && meal.error).toMatchObject({ label: [m.labelRequired], at: [m.instantRequired] });
  });

  it("announcements need a title and a content; notifications a message", () => {
    const announcement = parseWithZod(form({ title: "  ", content: "" }), { schema: AnnouncementSchema });
    expect(announcement.status === "error" && announcement.error).toMatchObject({ title: ["Title is required"], content: ["Content is required"] });
    const notification = parseWithZod(form({ message: "   " }), { schema: NotificationSchema });
    expect(notification.status === "error" && notification.error?.message).toEqual(["Please write a message"]);
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
    await updateGate(testAdmin, 1, { title: "The Gate of Dawn", description: "d", opensAt: zonedLocalToUtc("2025-04-24T19:00", "Africa/Algiers")! });
    const [gate] = await getDb().select().from(gates).where(eq(gates.number, 1));
    expect(gate.opensAt.toISOString()).toBe("2025-04-24T18:00:00.000Z");
    // The Arabic beside the English (docs/domain.md "Event content in two languages"); not given: none.
    await updateGate(testAdmin, 1, { title: "The Gate of Dawn", description: "d", titleAr: "بوابة الفجر", descriptionAr: "ادخل.", opensAt: gate.opensAt });
    expect((await readEventSettings()).gates.find((row) => row.number === 1)).toMatchObject({ titleAr: "بوابة الفجر", descriptionAr: "ادخل." });
    await updateGate(testAdmin, 1, { title: "The Gate of Dawn", description: "d", opensAt: gate.opensAt });
    expect((await readEventSettings()).gates.find((row) => row.number === 1)).toMatchObject({ titleAr: null, descriptionAr: null });

    await updateVideos(testAdmin, { video2: "https://new/2" });
    expect(await getHomeSettings()).toEqual({ videos: ["https://old/1", "https://new/2"], timeZone: "Africa/Algiers" });

    await addMeal(testAdmin, "Dinner", new Date("2025-04-24T19:00:00Z"));
    const [meal] = (await readEventSettings()).meals;
    expect(meal.label).toBe("Dinner");
    await removeMeal(testAdmin, meal.id);
    expect((await readEventSettings()).meals).toHaveLength(0);
  });
});
