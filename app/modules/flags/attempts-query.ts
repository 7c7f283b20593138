/**
 * The Attempts page's query (dashboard → Attempts, its CSV): which tab, the filters and the page. Anything
 * unknown is ignored rather than refused (on the screen they are links and a GET form). Pure: the page's
 * component reads the type.
 */
import { z } from "zod";
import { rowId } from "../ids.ts";

export const attemptVerdicts = ["correct", "incorrect"] as const;
export type AttemptVerdict = (typeof attemptVerdicts)[number];

export const attemptViews = ["attempts", "sharing"] as const;

const id = z.coerce.number().int().min(1).max(2_147_483_647).optional().catch(undefined);

export const AttemptListQuerySchema = z.object({
  view: z.enum(attemptViews).optional().catch(undefined),
  team: id,
  challenge: id,
  verdict: z.enum(attemptVerdicts).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1_000_000).optional().catch(undefined),
});

export type AttemptListQuery = z.infer<typeof AttemptListQuerySchema>;

/** What the lists are narrowed to (the sharing list reads the team as either side of a signal). */
export interface AttemptFilter {
  teamId?: number;
  challengeId?: number;
  verdict?: AttemptVerdict;
}

export function readAttemptListQuery(searchParams: URLSearchParams): AttemptListQuery {
  return AttemptListQuerySchema.parse(Object.fromEntries([...searchParams].filter(([, value]) => value !== "")));
}

export function attemptFilterOf(query: AttemptListQuery): AttemptFilter {
  return { teamId: query.team, challengeId: query.challenge, verdict: query.verdict };
}

/** The reset's form (a row's button): the team and the challenge whose counted wrong answers are reset. */
export const AttemptResetSchema = z.object({
  teamId: z.coerce.number().int().min(1).max(2_147_483_647),
  challengeId: z.coerce.number().int().min(1).max(2_147_483_647),
});

/** The per-team flags' download: the challenge. */
export const TeamFlagsQuerySchema = z.object({
  challenge: z.coerce.number().int().min(1).max(2_147_483_647),
  /** Every team's flag (CSV, the default), or the key and the derivation (text). */
  what: z.enum(["flags", "key"]).default("flags"),
});

/**
 * An admin's test of an answer (Dashboard → Attempts, docs/domain.md "Flag challenges"): the challenge, what
 * to try, and for a per-team answer the team to try it as (empty: none). Nothing is recorded.
 */
export const TryAnswerSchema = z.object({
  challengeId: rowId(),
  teamId: rowId().optional(),
  // Longer than an answer may be is said by the check itself (tryFlag), in words.
  answer: z.string().max(100_000),
});

/** What the page's action answers to a test: the verdict (or why it was refused) and what was typed, kept. */
export interface TriedAnswer {
  ok: boolean;
  /** The answer it matched (null: none, or refused). */
  matched: number | null;
  /** In English (messages.flags): the page shows it in the viewer's language. */
  message: string;
  values: { challengeId: string; teamId: string; answer: string };
}
