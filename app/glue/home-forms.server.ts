/**
 * The forms of the home content (call a mentor, Needs, the home videos), shared by /home, /welcome and
 * the dashboard home: parse with conform, call the modules, answer. A refusal keeps what was typed;
 * success redirects with the original platform's toast.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import type { UserActor } from "../modules/audit/audit.server.ts";
import { maySaveHomeVideos } from "../modules/auth/access.ts";
import type { SessionUser } from "../modules/auth/login.server.ts";
import { messages } from "../modules/messages.ts";
import { createRequest } from "../modules/requests/requests.server.ts";
import { RequestSchema } from "../modules/requests/schema.ts";
import { ownVideoPath, WelcomeVideosSchema, type VideosSchemaType } from "../modules/videos/schema.ts";
import { updateVideos } from "../modules/videos/videos.server.ts";
import { formFailure } from "./failures.server.ts";
import { redirectWithToast } from "./toast.server.ts";

/** The action of a page carrying the home forms: `intent` says which form was sent. */
export async function handleHomeAction(formData: FormData, user: SessionUser, returnTo: string, actor: UserActor, origin: string) {
  if (formData.get("intent") === "videos") return handleVideosAction(formData, user, returnTo, actor, origin);
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
    const failed = formFailure(submission, error, { log: `${intent} request not saved`, fallback: messages.participant.requestFailed });
    return data({ intent, result: failed.result }, failed.init);
  }
  // Without JavaScript the page shows the toast's words below its bar (app/components/flash-notice.tsx).
  return redirectWithToast(returnTo, { type: "success", title: messages.participant.requestSent });
}

/** On /welcome whoever may save the two home videos (`maySaveHomeVideos`: admins) saves them; any other role is refused (403). */
async function handleVideosAction(formData: FormData, user: SessionUser, returnTo: string, actor: UserActor, origin: string) {
  if (!maySaveHomeVideos(user.role)) throw data({ message: messages.errors.forbidden, home: user.role }, { status: 403 });
  return handleVideosForm(formData, WelcomeVideosSchema, returnTo, actor, origin);
}

/**
 * The videos form's action, shared by the dashboard home and /welcome.
 */
export async function handleVideosForm(formData: FormData, schema: VideosSchemaType, returnTo: string, actor: UserActor, origin: string) {
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data({ intent: "videos" as const, result: submission.reply() }, { status: 400 });
  try {
    // The form shows a video of our own as a full URL (URL inputs refuse a bare path): it is stored as its
    // path again, so it keeps playing whatever host the site is later reached by.
    const own = (url: string | undefined) => (url ? ownVideoPath(url, origin) ?? url : url);
    await updateVideos(actor, { ...submission.value, video1: own(submission.value.video1), video2: own(submission.value.video2) });
  } catch (error) {
    const failed = formFailure(submission, error, { log: "videos not saved", fallback: messages.videos.failed });
    return data({ intent: "videos" as const, result: failed.result }, failed.init);
  }
  return redirectWithToast(returnTo, { type: "success", title: messages.videos.updated });
}
