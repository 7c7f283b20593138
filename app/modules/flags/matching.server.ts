/**
 * How a flag challenge's answers match (docs/domain.md "Flag challenges"). Pure and server-only (node:crypto,
 * RE2): no flag, pattern or secret ever reaches a browser bundle.
 *
 * - An answer is trimmed of surrounding white space, then refused above 1 KB (UTF-8) before any matching.
 * - exact: the same characters; exact_ci: the same ignoring case (`foldCase`: composed, then lower-cased).
 *   Both compare SHA-256 digests with `timingSafeEqual`, so the time taken says nothing of how much matched.
 * - regex: the pattern must match the whole answer, run by RE2 (linear time: no pattern can stall a web
 *   process); a pattern is compile-checked when saved (`checkPattern`).
 * - per_team: the team's flag is the answer's text with its `<hmac>` replaced by the first 32 hex digits of
 *   HMAC-SHA256(challenge secret, team id in decimal) ("GK{<hmac>}" → "GK{3f…}"; a text without `<hmac>`
 *   gets them in braces at its end: "GK" → "GK{3f…}") (`perTeamFlag`); compared as exact.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { RE2 } from "re2-wasm";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { MAX_ANSWER_BYTES, PER_TEAM_SLOT, type FlagAnswer } from "./answers.ts";

// The answers' shape and limits are written once, in the browser-safe answers.ts.
export { MAX_ANSWER_BYTES, PER_TEAM_SLOT, type FlagAnswer, type FlagKind } from "./answers.ts";

/**
 * "Any case": both sides in Unicode's composed form (NFC), then lower-cased by JavaScript's full mapping
 * (`toLowerCase`): "É" and "E\u0301" are one, "STRASSE" is "strasse"; the mapping's special cases stay as
 * they are ("İ" lower-cases to "i̇", not "i").
 */
export function foldCase(text: string): string {
  return text.normalize("NFC").toLowerCase();
}

/** A UTF-16 surrogate without its pair (a JSON body may carry one as `\ud800`). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The answer as matched and stored: surrounding white space removed, and each lone surrogate made U+FFFD, as
 * UTF-8 writes it (the digests and Postgres's text see the same characters; Postgres's JSON refuses a lone one).
 */
export function normalisedAnswer(answer: string): string {
  return answer.trim().replace(LONE_SURROGATE, "\uFFFD");
}

/** Whether an answer is too long to be matched (refused with a 4xx before any work). */
export function answerTooLong(answer: string): boolean {
  // A JavaScript string of n UTF-16 units takes at most 3n bytes in UTF-8: most answers skip the count.
  if (answer.length * 3 <= MAX_ANSWER_BYTES) return false;
  return Buffer.byteLength(answer, "utf8") > MAX_ANSWER_BYTES;
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/** Equal strings, compared in constant time (over their digests, so lengths do not show either). */
export function sameText(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * An exact or any-case answer's digest, made once per answer object: a remembered challenge's answers are the
 * same objects from one verdict to the next, so a verdict digests only what was given. Made again if the object's
 * text or kind is not the one it was made from.
 */
const answerDigests = new WeakMap<FlagAnswer, { value: string; fold: boolean; digest: Buffer }>();
function digestOfAnswer(candidate: FlagAnswer, fold: boolean): Buffer {
  const made = answerDigests.get(candidate);
  if (made && made.value === candidate.value && made.fold === fold) return made.digest;
  const text = candidate.value.trim();
  const fresh = { value: candidate.value, fold, digest: digest(fold ? foldCase(text) : text) };
  answerDigests.set(candidate, fresh);
  return fresh.digest;
}

/** A new per-team key: 32 random bytes, hex. */
export function newFlagSecret(): string {
  return randomBytes(32).toString("hex");
}

/** The team's flag: the text with `<hmac>` replaced by HMAC-SHA256(secret, team id) cut to 32 hex digits (else `{hmac}` after it). */
export function perTeamFlag(secret: string, teamId: number, wrapper: string): string {
  const mac = createHmac("sha256", Buffer.from(secret, "hex")).update(String(teamId), "utf8").digest("hex").slice(0, 32);
  const at = wrapper.indexOf(PER_TEAM_SLOT);
  return at < 0 ? `${wrapper}{${mac}}` : wrapper.slice(0, at) + mac + wrapper.slice(at + PER_TEAM_SLOT.length);
}

/** The digest a per-team flag is looked up by (team_flags.digest). */
export function flagDigest(flag: string): string {
  return createHash("sha256").update(flag, "utf8").digest("hex");
}

/**
 * RE2 runs as WebAssembly with a fixed heap (16 MB a process) and frees a compiled pattern only when told to:
 * every compile is freed once it is no longer kept (a check at save time at once, a cached one when evicted),
 * and the cache is small. A pattern the engine cannot hold is refused when saved, with its reason.
 */
const compiled = new Map<string, RE2>();
const MAX_CACHED_PATTERNS = 100;

/** Frees a compiled pattern's memory in the engine (re2-wasm keeps its native object in a private `wrapper`). */
function free(regex: RE2 | undefined) {
  (regex as unknown as { wrapper?: { delete?: () => void } } | undefined)?.wrapper?.delete?.();
}

/** The pattern compiled to match a whole answer, kept per process (a pattern compiles once). */
function wholeMatch(pattern: string): RE2 {
  let regex = compiled.get(pattern);
  if (!regex) {
    regex = new RE2(`^(?:${pattern})$`, "u");
    if (compiled.size >= MAX_CACHED_PATTERNS) {
      const oldest = compiled.keys().next().value as string;
      free(compiled.get(oldest));
      compiled.delete(oldest);
    }
    compiled.set(pattern, regex);
  }
  return regex;
}

/** Null if RE2 compiles the pattern (as it will be matched: whole); else why not, in RE2's words. */
export function checkPattern(pattern: string): string | null {
  try {
    free(new RE2(`^(?:${pattern})$`, "u"));
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // The engine's heap is full: the pattern is too large for it (never a stack trace to the admin).
    return /enlarge memory|abort/i.test(reason) ? "the pattern is too large for the pattern engine; write it with fewer repetitions or classes" : reason.split("\n")[0];
  }
}

/**
 * The position (1-based) of the first answer the given one matches, or null. `teamSecret` is the challenge's
 * per-team key (null: per-team answers match nothing); `teamId` the team answering (null: an admin's test,
 * which no per-team answer matches unless `asTeamId` is given).
 */
export function matchAnswer(answers: readonly FlagAnswer[], answer: string, team: { id: number | null; secret: string | null }): number | null {
  const given = new GivenAnswer(normalisedAnswer(answer));
  let matched: number | null = null;
  // Every answer is tried (no early return), so the time does not tell which one matched.
  answers.forEach((candidate, index) => {
    if (matchesOne(candidate, given, team) && matched === null) matched = index + 1;
  });
  return matched;
}

/** The given answer, and its digests as the comparisons ask for them (each made once). */
class GivenAnswer {
  #digest: Buffer | undefined;
  #folded: Buffer | undefined;
  constructor(readonly text: string) {}
  get digest(): Buffer {
    return (this.#digest ??= digest(this.text));
  }
  get foldedDigest(): Buffer {
    return (this.#folded ??= digest(foldCase(this.text)));
  }
}

function matchesOne(candidate: FlagAnswer, given: GivenAnswer, team: { id: number | null; secret: string | null }): boolean {
  switch (candidate.kind) {
    case "exact":
      return timingSafeEqual(given.digest, digestOfAnswer(candidate, false));
    case "exact_ci":
      return timingSafeEqual(given.foldedDigest, digestOfAnswer(candidate, true));
    case "regex":
      try {
        return wholeMatch(candidate.value).test(given.text);
      } catch (error) {
        // A pattern RE2 does not take now (saved before it was checked, or its heap full): it matches nothing,
        // and the operators hear of it, since a right answer may read "incorrect".
        getLogger().error({ err: error }, "a flag pattern could not be run: it matches nothing");
        return false;
      }
    case "per_team":
      if (team.id === null || team.secret === null) return false;
      return timingSafeEqual(given.digest, digest(perTeamFlag(team.secret, team.id, candidate.value.trim())));
  }
}
