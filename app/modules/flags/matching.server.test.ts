import { describe, expect, it } from "vitest";
import { answerTooLong, checkPattern, matchAnswer, MAX_ANSWER_BYTES, newFlagSecret, perTeamFlag, sameText } from "./matching.server.ts";

const none = { id: null, secret: null };

describe("matchAnswer", () => {
  it("matches exact answers with their case, ignoring surrounding white space; any-case answers without it", () => {
    const answers = [
      { kind: "exact" as const, value: "GK{Exact}" },
      { kind: "exact_ci" as const, value: "gk{Any}" },
    ];
    expect(matchAnswer(answers, " GK{Exact}\n", none)).toBe(1);
    expect(matchAnswer(answers, "gk{exact}", none)).toBeNull();
    expect(matchAnswer(answers, "GK{ANY}", none)).toBe(2);
    expect(matchAnswer(answers, "GK{An y}", none)).toBeNull();
  });

  it("keeps an answer's digest between verdicts, and digests it again once its text or kind has changed", () => {
    const answers: Array<{ kind: "exact" | "exact_ci"; value: string }> = [{ kind: "exact", value: "GK{Kept}" }];
    expect(matchAnswer(answers, "GK{Kept}", none)).toBe(1);
    expect(matchAnswer(answers, "GK{kept}", none)).toBeNull();
    answers[0].value = "GK{Changed}";
    expect(matchAnswer(answers, "GK{Kept}", none)).toBeNull();
    expect(matchAnswer(answers, "GK{Changed}", none)).toBe(1);
    answers[0].kind = "exact_ci";
    expect(matchAnswer(answers, "gk{changed}", none)).toBe(1);
  });

  it("matches a pattern against the whole answer only", () => {
    const answers = [{ kind: "regex" as const, value: "GK\\{[0-9]+\\}" }];
    expect(matchAnswer(answers, "GK{123}", none)).toBe(1);
    expect(matchAnswer(answers, "xGK{123}", none)).toBeNull();
    expect(matchAnswer(answers, "GK{123}x", none)).toBeNull();
    // An alternation cannot escape the anchors.
    expect(matchAnswer([{ kind: "regex", value: "a|b" }], "ab", none)).toBeNull();
  });

  it("runs a pattern that backtracks catastrophically in a JavaScript RegExp in linear time", () => {
    const started = performance.now();
    expect(matchAnswer([{ kind: "regex", value: "(a+)+$" }], `${"a".repeat(1000)}!`, none)).toBeNull();
    expect(matchAnswer([{ kind: "regex", value: "(x+x+)+y" }], "x".repeat(1000), none)).toBeNull();
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("derives each team's flag from the secret; another team's flag does not match", () => {
    const secret = newFlagSecret();
    const answers = [{ kind: "per_team" as const, value: "GK{<hmac>}" }];
    const flag7 = perTeamFlag(secret, 7, "GK{<hmac>}");
    expect(flag7).toMatch(/^GK\{[0-9a-f]{32}\}$/);
    expect(perTeamFlag(secret, 7, "GK")).toBe(flag7);
    expect(matchAnswer(answers, flag7, { id: 7, secret })).toBe(1);
    expect(matchAnswer(answers, flag7, { id: 8, secret })).toBeNull();
    expect(matchAnswer(answers, flag7, none)).toBeNull();
    expect(perTeamFlag(newFlagSecret(), 7, "GK{<hmac>}")).not.toBe(flag7);
  });
});

describe("answers and patterns refused", () => {
  it("counts the 1 KB limit in UTF-8 bytes", () => {
    expect(answerTooLong("a".repeat(MAX_ANSWER_BYTES))).toBe(false);
    expect(answerTooLong("a".repeat(MAX_ANSWER_BYTES + 1))).toBe(true);
    expect(answerTooLong("é".repeat(513))).toBe(true);
  });

  it("says why RE2 refuses a pattern, and takes the ones it compiles", () => {
    expect(checkPattern("GK\\{\\w+\\}")).toBeNull();
    expect(checkPattern("(a")).toMatch(/missing \)/);
    expect(checkPattern("(?=look)ahead")).toMatch(/invalid perl operator/);
    expect(checkPattern("(a)\\1")).not.toBeNull();
  });

  it("compares texts of any length", () => {
    expect(sameText("a", "a")).toBe(true);
    expect(sameText("a", "ab")).toBe(false);
  });
});

describe("the pattern engine's memory", () => {
  it("frees what it compiles: checks and evicted patterns leave room for the next match", () => {
    // Without freeing, some 2,500 compiles of this pattern fill the engine's 16 MB heap.
    for (let i = 0; i < 2_800; i++) expect(checkPattern(`GK\\{[A-Za-z0-9_]{8,64}\\}${i % 7}`)).toBeNull();
    for (let i = 0; i < 150; i++) matchAnswer([{ kind: "regex", value: `GK\\{[A-Za-z0-9_]{8,64}\\}x${i}` }], "GK{abc}", none);
    expect(matchAnswer([{ kind: "regex", value: "flag\\{[a-f0-9]{32}\\}" }], `flag{${"a".repeat(32)}}`, none)).toBe(1);
    // 3,000 compiles of the engine: 15–30 s on a quiet 2-core machine, over 60 s beside a browser test run.
  }, 180_000);

  it("folds case in composed form: precomposed and decomposed letters are one", () => {
    expect(matchAnswer([{ kind: "exact_ci", value: "gk{café}" }], "GK{CAFE\u0301}", none)).toBe(1);
  });
});
