import { describe, expect, it } from "vitest";
import { standings, userStatistics } from "../../db/schema.ts";
import { standingsCsv, usersRankCsv } from "../../app/modules/exports/csv.server.ts";
import { listUsersRank } from "../../app/modules/users/rank.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";
import { loader as usersRankCsvLoader } from "../../app/routes/dashboard.exports.users-rank[.csv].tsx";

describe("users rank and CSV exports", () => {
  it("ranks participants only, by total, with zeros for users without statistics", async () => {
    const team = await makeTeam("فريق الصقور");
    const star = await makeUser("participant", team.id, "ليلى");
    const zero = await makeUser("participant", team.id, "omar-zero");
    await makeUser("judge", null, "judge-not-ranked");
    await getDb().insert(userStatistics).values({ userId: star.id, aiCenti: 1250, gdCenti: 500, totalCenti: 1750, aiSolved: 1 });
    const ranked = await listUsersRank();
    expect(ranked.map((user) => user.name)).toEqual(["ليلى", "omar-zero"]);
    expect(ranked[0]).toMatchObject({ ai: 12.5, gd: 5, total: 17.5, solved: { AI: 1, GD: 0, CS: 0, PS: 0 } });
    expect(ranked[1]).toMatchObject({ id: zero.id, total: 0 });

    const csv = await usersRankCsv();
    expect(csv.startsWith("\uFEFFRank,Team,User,AI,AI solved")).toBe(true);
    expect(csv).toContain("1,فريق الصقور,ليلى,12.5,1,5,0,0,0,0,0,17.5\r\n");
  });

  it("exports live standings in order, with a BOM and Arabic names intact", async () => {
    const [a, b] = [await makeTeam("Alpha, Inc"), await makeTeam("العنقاء")];
    await getDb().insert(standings).values([
      { teamId: a.id, aiCenti: 1000, totalCenti: 1000, solvedCount: 1 },
      { teamId: b.id, csCenti: 2050, totalCenti: 2050, solvedCount: 2 },
    ]);
    const csv = await standingsCsv();
    const lines = csv.replace("\uFEFF", "").split("\r\n");
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(lines[0]).toBe("Rank,Team,AI,CS,PS,GD,Total,Solved");
    expect(lines[1]).toBe("1,العنقاء,0,20.5,0,0,20.5,2");
    expect(lines[2]).toBe('2,"Alpha, Inc",10,0,0,0,10,1');
  });

  it("defuses a team name a spreadsheet would run as a formula", async () => {
    // Team names can come from the public registration form (accounts from registrations).
    await makeTeam('=HYPERLINK("http://evil.example","x")');
    const csv = await standingsCsv();
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csv).not.toMatch(/,=HYPERLINK/);
  });

  it("serves the CSV to admins only", async () => {
    const admin = await makeUser("admin");
    const judge = await makeUser("judge");
    const request = async (userId: number) =>
      usersRankCsvLoader({
        request: new Request("http://localhost/dashboard/exports/users-rank.csv", { headers: { Cookie: await sessionCookie(userId) } }),
        params: {},
        context: {},
      });
    const response = await request(admin.id);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    await expect(request(judge.id)).rejects.toMatchObject({ init: { status: 403 } });
  });
});
