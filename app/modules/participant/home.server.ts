/** The home content's loader, shared by /home and /welcome (their forms: app/glue/home-forms.server.ts). */
import type { EventVersions } from "../event-data/shared.server.ts";
import { getNextMeal } from "../meals/meals.server.ts";
import { getHomeSettings } from "../videos/videos.server.ts";

export async function loadHomeContent(now = new Date(), versions: EventVersions | null = null) {
  const [meal, settings] = await Promise.all([getNextMeal(now, versions), getHomeSettings(versions)]);
  return { meal, videos: settings.videos, timeZone: settings.timeZone };
}
