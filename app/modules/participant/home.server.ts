/** The home content's loader, shared by /home and /welcome (their forms: app/glue/home-forms.server.ts). */
import { getNextMeal } from "../meals/meals.server.ts";
import { getHomeSettings } from "../videos/videos.server.ts";

export async function loadHomeContent(now = new Date()) {
  const [meal, settings] = await Promise.all([getNextMeal(now), getHomeSettings()]);
  return { meal, videos: settings.videos, timeZone: settings.timeZone };
}
