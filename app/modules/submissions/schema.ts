import { z } from "zod";
import { text } from "../form-fields.ts";

/** The spec's limit (200 MB); the server's own limit comes from SUBMISSION_MAX_BYTES. */
export const DEFAULT_SUBMISSION_MAX_BYTES = 209_715_200;

/** The text part of a submission form; the file is streamed apart (upload.server.ts). */
export const SubmissionFormSchema = z.object({
  text: text().trim().max(20_000, "The text is too long (20000 characters at most)").optional(),
});
