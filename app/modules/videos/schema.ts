import { z } from "zod";

const optionalUrl = z
  .string()
  .trim()
  .max(2000)
  .optional()
  .refine((value) => !value || /^https?:\/\//i.test(value), "Please enter a http(s) URL");

/** Spec 5: at least one URL; empty ones are not sent (the stored one stays). */
export const VideosSchema = z
  .object({ video1: optionalUrl, video2: optionalUrl })
  .refine((value) => Boolean(value.video1 || value.video2), { message: "Please provide at least one video URL." });
