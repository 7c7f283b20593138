import { z } from "zod";
import { text } from "../form-fields.ts";
import { parseRowId, rowId } from "../ids.ts";
import { messages } from "../messages.ts";
import { ScoreFormSchema } from "../scoring/score-input.ts";

/**
 * The workspace's score form: the score form, plus the version the judge looked at (its `revisedAt`, so a
 * score is never given to a version they have not seen).
 */
export const WorkspaceScoreSchema = ScoreFormSchema.extend({
  // A rubric challenge sends a score per criterion instead (scoreSubmission says which it needs).
  score: text().optional(),
  criteria: z.record(z.string().regex(/^\d{1,10}$/), text().optional()).optional(),
  revision: z.iso.datetime(),
});

/** The workspace's renewal of a claim while the judge works (with N judges per submission). */
export const RenewClaimSchema = z.object({ intent: z.literal("renew"), submissionId: rowId() });

/**
 * The workspace's query: ?gate=&category=&challenge= filter the queue, ?s= opens a submission, ?after= the
 * next one in the queue after that submission (skip, and after a score), ?saved= confirms a score. Unknown
 * values are ignored.
 */
export const WorkspaceQuerySchema = z.object({
  gate: z.coerce.number().int().min(1).max(5).optional().catch(undefined),
  category: z.enum(["AI", "CS", "PS", "GD"]).optional().catch(undefined),
  challenge: z.string().transform((value) => parseRowId(value) ?? undefined).optional().catch(undefined),
  after: z.string().transform((value) => parseRowId(value) ?? undefined).optional().catch(undefined),
  s: z.string().transform((value) => parseRowId(value) ?? undefined).optional().catch(undefined),
  saved: z.string().transform((value) => parseRowId(value) ?? undefined).optional().catch(undefined),
});

export type WorkspaceQuery = z.infer<typeof WorkspaceQuerySchema>;

export function readWorkspaceQuery(searchParams: URLSearchParams): WorkspaceQuery {
  return WorkspaceQuerySchema.parse(Object.fromEntries([...searchParams].filter(([, value]) => value !== "")));
}

/** The queue's filters, kept across every link and form of the workspace. */
export const filtersOf = (query: WorkspaceQuery) => ({ gate: query.gate, category: query.category, challenge: query.challenge });

/** The queue is filtered (by gate, category or challenge). */
export const isFiltered = (query: WorkspaceQuery) => query.gate !== undefined || query.category !== undefined || query.challenge !== undefined;

/** The workspace URL for a query (what is undefined is left out). */
export function workspaceHref(query: Partial<WorkspaceQuery>): string {
  const params = new URLSearchParams();
  for (const key of ["gate", "category", "challenge", "after", "s", "saved"] as const) if (query[key] !== undefined) params.set(key, String(query[key]));
  const search = params.toString();
  return `/dashboard/judge${search ? `?${search}` : ""}`;
}

/** The settings page's judging form: "every" judge or 1 to 20 judges a submission; blind on or off. */
export const JudgingSettingsSchema = z.object({
  judgesPerSubmission: z.union([z.literal("every"), z.coerce.number().int().min(1).max(20)], { error: messages.judging.judgesPerSubmission }),
  blind: z.literal("on").optional(),
});

/** The gates whose judging feedback an admin may publish (app/modules/judging/feedback.server.ts). */
export const FEEDBACK_GATE_NUMBERS = [1, 2, 3, 4, 5] as const;

/** The settings page's feedback form: the gates whose judging feedback teams may read (none ticked: none). */
export const FeedbackGatesSchema = z.object({
  gates: z.array(z.coerce.number().int().min(1).max(5)).max(FEEDBACK_GATE_NUMBERS.length).optional(),
});
