import { z } from "zod";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";

const videoUrl = text()
  .trim()
  .max(2000, messages.dashboard.tooLong)
  .refine((value) => /^https?:\/\/\S+$/i.test(value), messages.dashboard.urlInvalid)
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
