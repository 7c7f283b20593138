import { z } from "zod";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";

/** The original platform's limit (200 MB); the server's own limit comes from SUBMISSION_MAX_BYTES. */
export const DEFAULT_SUBMISSION_MAX_BYTES = 209_715_200;

/** The text part of a submission form; the file is streamed apart (upload.server.ts). */
export const SubmissionFormSchema = z.object({
  text: text().trim().max(20_000, messages.participant.textTooLong).optional(),
});

export const submissionSortKeys = ["team", "user", "challenge", "date", "status", "points"] as const;

/**
 * The judging table's ?sort=&dir= and filters (dashboard Submissions and GET /api/v1/submissions):
 * anything unknown is ignored rather than refused (on the screen they are links).
 */
export const SubmissionListQuerySchema = z.object({
  sort: z.enum(submissionSortKeys).catch("date"),
  dir: z.enum(["asc", "desc"]).optional().catch(undefined),
  gate: z.coerce.number().int().min(1).max(5).optional().catch(undefined),
  category: z.enum(["AI", "CS", "PS", "GD"]).optional().catch(undefined),
  status: z.enum(["pending", "approved", "rejected", "reviewed"]).optional().catch(undefined),
  mine: z.literal("unscored").optional().catch(undefined),
  // The dashboard's page of the list (SUBMISSIONS_PAGE_SIZE rows); the API's list is not paged.
  page: z.coerce.number().int().min(1).max(1_000_000).optional().catch(undefined),
});

export type SubmissionListQuery = z.infer<typeof SubmissionListQuerySchema> & { dir: "asc" | "desc" };

/** Reads the query; dates and points read best newest/highest first, names A to Z. */
export function readSubmissionListQuery(searchParams: URLSearchParams): SubmissionListQuery {
  const query = SubmissionListQuerySchema.parse(Object.fromEntries([...searchParams].filter(([, value]) => value !== "")));
  return { ...query, dir: query.dir ?? (query.sort === "date" || query.sort === "points" ? "desc" : "asc") };
}
