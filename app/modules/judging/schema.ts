import { z } from "zod";
import { parseRowId, rowId } from "../ids.ts";
import { ScoreFormSchema } from "../scoring/score-input.ts";

/**
 * The workspace's score form: the score form, plus the version the judge looked at (its `revisedAt`, so a
 * score is never given to a version they have not seen) and the submission to open next.
 */
export const WorkspaceScoreSchema = ScoreFormSchema.extend({
  revision: z.iso.datetime(),
  next: rowId().optional(),
});

/**
 * The workspace's query: ?gate=&category=&challenge= filter the queue, ?s= opens a submission, ?saved=
 * confirms a score. Unknown values are ignored.
 */
export const WorkspaceQuerySchema = z.object({
  gate: z.coerce.number().int().min(1).max(5).optional().catch(undefined),
  category: z.enum(["AI", "CS", "PS", "GD"]).optional().catch(undefined),
  challenge: z.string().transform((value) => parseRowId(value) ?? undefined).optional().catch(undefined),
  s: z.string().transform((value) => parseRowId(value) ?? undefined).optional().catch(undefined),
  saved: z.string().transform((value) => parseRowId(value) ?? undefined).optional().catch(undefined),
});

export type WorkspaceQuery = z.infer<typeof WorkspaceQuerySchema>;

export function readWorkspaceQuery(searchParams: URLSearchParams): WorkspaceQuery {
  return WorkspaceQuerySchema.parse(Object.fromEntries([...searchParams].filter(([, value]) => value !== "")));
}

/** The workspace URL for a query (what is undefined is left out). */
export function workspaceHref(query: Partial<WorkspaceQuery>): string {
  const params = new URLSearchParams();
  for (const key of ["gate", "category", "challenge", "s", "saved"] as const) if (query[key] !== undefined) params.set(key, String(query[key]));
  const search = params.toString();
  return `/dashboard/judge${search ? `?${search}` : ""}`;
}
