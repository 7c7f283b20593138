/** The home content's loader and its two request forms (call a mentor, Needs), shared by /home and /welcome. */
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import type { SessionUser } from "../auth/login.server.ts";
import { getNextMeal } from "../meals/meals.server.ts";
import { messages } from "../messages.ts";
import { createRequest } from "../requests/requests.server.ts";
import { RequestSchema } from "../requests/schema.ts";
import { WelcomeVideosSchema } from "../videos/schema.ts";
import { getHomeSettings, handleVideosForm } from "../videos/videos.server.ts";
import { getLogger } from "../../utils/logger.server.ts";
import { redirectWithToast } from "../../utils/toast.server.ts";

export async function loadHomeContent(now = new Date()) {
  const [meal, settings] = await Promise.all([getNextMeal(now), getHomeSettings()]);
  return { meal, videos: settings.videos, timeZone: settings.timeZone };
}

/** The action of a page carrying the home forms: `intent` says which form was sent. */
export async function handleHomeAction(formData: FormData, user: SessionUser, returnTo: string) {
  if (formData.get("intent") === "videos") return handleVideosAction(formData, user, returnTo);
  const intent: "mentor" | "needs" = formData.get("intent") === "needs" ? "needs" : "mentor";
  const submission = parseWithZod(formData, { schema: RequestSchema });
  if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
  try {
    await createRequest(intent, submission.value.message, {
      userId: user.id,
      userName: user.name,
      teamId: user.teamId,
      teamName: user.teamName,
    });
  } catch (error) {
    getLogger().error({ err: error, intent }, "request not saved");
    return data({ intent, result: submission.reply({ formErrors: [messages.participant.requestFailed] }) }, { status: 500 });
  }
  // `?sent=` also tells a browser without JavaScript (no toast there) that it worked.
  return redirectWithToast(`${returnTo}?sent=${intent}`, { type: "success", title: messages.participant.requestSent });
}

/** DOMAIN.md: on /welcome an admin may save the two home videos. */
async function handleVideosAction(formData: FormData, user: SessionUser, returnTo: string) {
  if (user.role !== "admin") throw data({ message: messages.errors.forbidden, home: user.role }, { status: 403 });
  return handleVideosForm(formData, WelcomeVideosSchema, returnTo);
}
