import { describe, expect, it } from "vitest";
import { messages } from "../messages.ts";
import { answersSummary, checkAnswers, formatAnswers, parseAnswers, type FlagAnswer } from "./answers.ts";

const m = messages.flagAnswers;

describe("a challenge's answers as text", () => {
  it("reads the four forms, a bare line as exact, prefixes in any case, blank lines skipped", () => {
    const parsed = parseAnswers("exact: GK{one}\n\n  Any Case:  gk{Two}  \r\nregex: GK\\{[a-z]+\\}\nper team: GK{<hmac>}\nGK{bare: colon}\n");
    expect(parsed).toEqual({
      answers: [
        { kind: "exact", value: "GK{one}" },
        { kind: "exact_ci", value: "gk{Two}" },
        { kind: "regex", value: "GK\\{[a-z]+\\}" },
        { kind: "per_team", value: "GK{<hmac>}" },
        { kind: "exact", value: "GK{bare: colon}" },
      ],
      lines: [1, 3, 4, 5, 6],
    });
    expect(parseAnswers("")).toEqual({ answers: [], lines: [] });
    expect(parseAnswers(undefined)).toEqual({ answers: [], lines: [] });
    expect(parseAnswers("per-team: X\nany_case: y")).toMatchObject({ answers: [{ kind: "per_team" }, { kind: "exact_ci" }] });
  });

  it("writes them back so that they read the same, an answer that looks like a prefix included", () => {
    const answers: FlagAnswer[] = [
      { kind: "exact", value: "regex: not a pattern" },
      { kind: "exact_ci", value: "Café {ünïcode}" },
      { kind: "regex", value: "a|b: c" },
      { kind: "per_team", value: "GK{<hmac>}" },
      { kind: "exact", value: "tab\there" },
    ];
    const text = formatAnswers(answers);
    expect(text).toBe("exact: regex: not a pattern\nany case: Café {ünïcode}\nregex: a|b: c\nper team: GK{<hmac>}\nexact: tab\there");
    expect(parseAnswers(text)).toMatchObject({ answers });
  });

  it("names the line of the first problem", () => {
    expect(parseAnswers("GK{a}\n\nexact:   ")).toEqual({ error: m.emptyValue(3) });
    expect(parseAnswers("ok\nbad\u0007bell")).toEqual({ error: m.controlCharacters(2) });
    expect(parseAnswers(`ok\n${"é".repeat(513)}`)).toEqual({ error: m.tooLong(2) });
    expect(parseAnswers(`${"é".repeat(512)}`)).toMatchObject({ answers: [{ kind: "exact" }] });
    expect(parseAnswers("per team: A<hmac>\nok\nper team: B")).toEqual({ error: m.onePerTeam(3) });
    expect(parseAnswers(Array.from({ length: 21 }, (_, i) => `a${i}`).join("\n"))).toEqual({ error: m.tooMany });
    expect(parseAnswers(Array.from({ length: 20 }, (_, i) => `a${i}`).join("\n"))).toHaveProperty("answers");
  });

  it("checks a list given as such (the API's) by its places", () => {
    expect(checkAnswers([{ kind: "exact", value: "x" }, { kind: "regex", value: "" }])).toBe(m.emptyValue(2));
    expect(checkAnswers([{ kind: "exact", value: "two\nlines" }])).toBe(m.controlCharacters(1));
    expect(checkAnswers([{ kind: "exact", value: "x" }])).toBeNull();
  });

  it("summarises them for the audit trail without a value", () => {
    const summary = answersSummary([
      { kind: "exact", value: "GK{secret}" },
      { kind: "exact", value: "GK{other}" },
      { kind: "regex", value: "GK.*" },
    ]);
    expect(summary).toEqual({ count: 3, kinds: { exact: 2, regex: 1 } });
    expect(JSON.stringify(summary)).not.toContain("GK");
  });
});
