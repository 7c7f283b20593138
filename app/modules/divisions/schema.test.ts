import { describe, expect, it } from "vitest";
import { messages } from "../messages";
import { DivisionsFormSchema, divisionField, divisionList, divisionNamed, parseDivisionList } from "./schema";

const m = messages.divisions;

describe("the event's list of divisions, as typed", () => {
  it("keeps one name a line, trimmed and in NFKC form, in the typed order; blank lines are skipped", () => {
    expect(parseDivisionList("  Student \n\n\tＯｐｅｎ  \r\nHigh   school\n")).toEqual({ names: ["Student", "Open", "High school"] });
    expect(parseDivisionList("")).toEqual({ names: [] });
    expect(parseDivisionList(undefined)).toEqual({ names: [] });
  });

  it("refuses invisible and control characters, over-long names, the same name twice (case, look-alikes) and too many", () => {
    expect(parseDivisionList("Stu\u200Bdent")).toEqual({ errors: [m.onLine(1, m.invisible)] });
    expect(parseDivisionList("Open\nNul\u0000")).toEqual({ errors: [m.onLine(2, m.invisible)] });
    expect(parseDivisionList("\u202EnepO")).toEqual({ errors: [m.onLine(1, m.invisible)] });
    expect(parseDivisionList("x".repeat(41))).toEqual({ errors: [m.onLine(1, m.nameTooLong(40))] });
    expect(parseDivisionList("Student\nSTUDENT")).toEqual({ errors: [m.duplicate("STUDENT", "Student")] });
    // Cyrillic "О" looks like Latin "O": the same division.
    expect(parseDivisionList("Open\n\u041Epen")).toEqual({ errors: [m.duplicate("\u041Epen", "Open")] });
    expect(parseDivisionList(Array.from({ length: 13 }, (_, i) => `D${i}`).join("\n"))).toEqual({ errors: [m.tooMany(12)] });
  });

  it("keeps markup as text (it is shown escaped, never as HTML)", () => {
    expect(parseDivisionList('<img src=x onerror="alert(1)">')).toEqual({ names: ['<img src=x onerror="alert(1)">'] });
  });

  it("the Settings form gives the list, or every problem on the field", () => {
    expect(DivisionsFormSchema.safeParse({ divisions: "Student\nOpen" }).success).toBe(true);
    expect(divisionList("Student\nOpen")).toEqual(["Student", "Open"]);
    const refused = DivisionsFormSchema.safeParse({ divisions: "A\na" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([[["divisions"], m.duplicate("a", "A")]]);
  });
});

describe("a team's division, as typed", () => {
  it("names a division of the list without regard to case or look-alikes, as the list spells it", () => {
    expect(divisionNamed(["Student", "Open"], "student")).toBe("Student");
    expect(divisionNamed(["Student", "Open"], "0pen")).toBe("Open");
    expect(divisionNamed(["Student", "Open"], "Pro")).toBeNull();
  });

  it("refuses control characters and over-long names", () => {
    expect(divisionField.safeParse("Open\u0007").success).toBe(false);
    expect(divisionField.safeParse("x".repeat(41)).success).toBe(false);
    expect(divisionField.parse("  Open ")).toBe("Open");
  });
});
