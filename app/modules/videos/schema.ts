import { z } from "zod";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";

/**
 * A video file we store ourselves (the demo event's, uploaded by the seed) plays from this path of our
 * own origin (routes/media.$id.tsx); a home video is such a path or any http(s) URL.
 */
export const OWN_VIDEO_PATH = /^\/media\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** A URL of one of our own videos on this site (`origin`) as the path it is stored by; null for any other. */
export function ownVideoPath(url: string, origin: string): string | null {
  try {
    const parsed = new URL(url, origin);
    return parsed.origin === new URL(origin).origin && OWN_VIDEO_PATH.test(parsed.pathname) && !parsed.search && !parsed.hash ? parsed.pathname : null;
  } catch {
    return null;
  }
}

const videoUrl = text()
  .trim()
  .max(2000, messages.dashboard.tooLong)
  .refine((value) => /^https?:\/\/\S+$/i.test(value) || OWN_VIDEO_PATH.test(value), messages.dashboard.urlInvalid)
  .optional();

/** At least one URL; values trimmed; empty ones are not sent (they keep the stored value). */
function videosSchema(atLeastOne: string) {
  return z.object({ video1: videoUrl, video2: videoUrl }).refine((value) => Boolean(value.video1 || value.video2), { message: atLeastOne });
}

/** The dashboard's "Edit the home page videos" form. */
export const DashboardVideosSchema = videosSchema(messages.dashboard.videosRequired);

/** The Save Videos form admins see on /welcome (worded differently there, as the original platform did). */
export const WelcomeVideosSchema = videosSchema(messages.participant.videosRequired);

export type VideosSchemaType = typeof DashboardVideosSchema;
