import { describe, expect, it } from "vitest";
import type { Role } from "../auth/access.ts";
import { anonymousFileName, anonymousTeamName, inSubmissionOrder, namesView } from "./blind.server.ts";
import type { SubmissionForJudge } from "./workspace.server.ts";

const roles: Role[] = ["admin", "judge", "participant", "mentor"];
const rows = [
  { id: 3, teamId: 30, team: "Zeta", user: "zoe", fileName: "Zeta-logo.PNG" },
  { id: 1, teamId: 10, team: "alpha", user: null, fileName: null },
  { id: 2, teamId: 20, team: "Mid", user: "max", fileName: "notes" },
];

describe("blind judging: who reads names", () => {
  it("hides them from judges while judging is blind, from nobody otherwise", () => {
    for (const role of roles) {
      expect(namesView({ blind: true }, { role }).hidden).toBe(role === "judge");
      expect(namesView({ blind: false }, { role }).hidden).toBe(false);
    }
  });

  it("leaves everything as it is for a reader who sees names", () => {
    const names = namesView({ blind: true }, { role: "admin" });
    expect(names.list(rows, "team")).toBe(rows);
    expect(names.rows(rows)).toBe(rows);
    expect(names.fileName("Zeta-logo.png")).toBe("Zeta-logo.png");
    expect(names.ordersById("team")).toBe(false);
  });

  it("gives a blind judge a stable label, no member, the file's extension only and no team id on the pages", () => {
    const names = namesView({ blind: true }, { role: "judge" });
    expect(anonymousTeamName(30)).toMatch(/^Team [A-Z2-9]{6}$/);
    expect(anonymousTeamName(30)).toBe(anonymousTeamName(30));
    expect(anonymousTeamName(30)).not.toBe(anonymousTeamName(10));
    expect(names.rows(rows)).toEqual([
      { id: 3, teamId: 0, team: anonymousTeamName(30), user: null, fileName: "file.png" },
      { id: 1, teamId: 0, team: anonymousTeamName(10), user: null, fileName: null },
      { id: 2, teamId: 0, team: anonymousTeamName(20), user: null, fileName: "file" },
    ]);
    // The API sends no team id either (null); rows without a member keep none.
    expect(names.apiList([{ id: 1, teamId: 7, team: "Named" }], undefined)).toEqual([{ id: 1, teamId: null, team: anonymousTeamName(7) }]);
    expect(names.teamId(7)).toBeNull();
    expect(namesView({ blind: true }, { role: "admin" }).teamId(7)).toBe(7);
    expect(names.fileName("Zeta.tar.GZ")).toBe(anonymousFileName("x.gz"));
  });

  it("puts a list sorted by a hidden name in submission order, and only such a list", () => {
    const names = namesView({ blind: true }, { role: "judge" });
    for (const sort of ["team", "user"]) {
      expect(names.ordersById(sort)).toBe(true);
      expect(names.list(rows, sort).map((row) => row.id)).toEqual([1, 2, 3]);
    }
    for (const sort of [undefined, "challenge", "date", "status", "points"]) {
      expect(names.ordersById(sort)).toBe(false);
      expect(names.list(rows, sort).map((row) => row.id)).toEqual([3, 1, 2]);
    }
    expect(inSubmissionOrder(rows).map((row) => row.id)).toEqual([1, 2, 3]);
  });

  it("hides the names in the workspace's submission and its earlier versions", () => {
    const submission = {
      id: 5,
      teamId: 30,
      team: "Zeta",
      user: "zoe",
      file: { name: "Zeta.pdf", size: 10, type: "application/pdf", view: { kind: "pdf" } },
      versions: [
        { id: 1, user: "zoe", text: "v1", file: { name: "Zeta-v1.pdf", size: 9 }, fileDropped: false, submittedAt: new Date(0), replacedAt: new Date(1) },
        { id: 2, user: null, text: "v0", file: null, fileDropped: true, submittedAt: new Date(0), replacedAt: new Date(1) },
      ],
    } as unknown as SubmissionForJudge;
    expect(namesView({ blind: true }, { role: "admin" }).submission(submission)).toBe(submission);
    const shown = namesView({ blind: true }, { role: "judge" }).submission(submission);
    expect(shown).toMatchObject({ teamId: 0, team: anonymousTeamName(30), user: null, file: { name: "file.pdf", size: 10 } });
    expect(shown.versions.map((version) => [version.user, version.file?.name ?? null])).toEqual([
      [null, "file.pdf"],
      [null, null],
    ]);
    expect(JSON.stringify(shown)).not.toContain("Zeta");
    expect(JSON.stringify(shown)).not.toContain("zoe");
  });
});
