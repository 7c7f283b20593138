/**
 * /dashboard/import: 200 users with one bad row write nothing and name the row; fixed, all are written
 * in one go with their passwords shown once. Challenges from CSV and JSON.
 */
import { count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { challenges, standingsOutbox, teams, users } from "../../db/schema.ts";
import { verifyPassword } from "../../app/modules/auth/password.server.ts";
import { importAccounts, previewAccountsImport } from "../../app/modules/imports/accounts-import.server.ts";
import { importChallenges, previewChallengesImport } from "../../app/modules/imports/challenges-import.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { action, loader } from "../../app/routes/dashboard.import.tsx";
import { updateTeamSizeCap } from "../../app/modules/teams/team-size.server.ts";
import { ensureEventSettings, makeTeam, makeUser, sessionCookie, testAdmin } from "../support/fixtures.ts";


const m = messages.imports;
const url = "http://localhost/dashboard/import";

async function usersCount() {
  const [row] = await getDb().select({ n: count() }).from(users);
  return row.n;
}

/** 200 rows over 20 teams, one of them existing (written in another case); every 50th without a password. */
function accountsCsv(badRow?: number) {
  const lines = ["team,name,role,password"];
  for (let i = 1; i <= 200; i++) {
    const team = i <= 10 ? "EXISTING falcons" : `Team ${Math.ceil(i / 10)}`;
    const password = i % 50 === 0 ? "" : `password-${i}`;
    lines.push(i === badRow ? `${team},player${i},wizard,${password}` : `${team},player${i},participant,${password}`);
  }
  lines.push(",judge.import,Judge,");
  return `${lines.join("\r\n")}\r\n`;
}

type ActionResult = { data: Record<string, unknown> & { step: string; check?: { fileError: string | null; issues: Array<{ row: number; messages: string[] }>; rows: unknown[] } }; init: { status?: number } | null };

async function post(cookie: string, body: FormData | URLSearchParams) {
  const request = new Request(url, { method: "POST", headers: { Cookie: cookie, Origin: "http://localhost" }, body });
  return (await action({ request, params: {}, context: {} })) as unknown as ActionResult;
}

function upload(kind: string, content: string, fileName: string) {
  const form = new FormData();
  form.append("kind", kind);
  form.append("intent", "preview");
  form.append("file", new Blob([content], { type: "text/csv" }), fileName);
  return form;
}

describe("importing teams and users", () => {
  // 201 argon2 hashes: seconds on a quiet machine, more on a busy CI runner.
  it("200 users with one bad row: the preview names the row, the import writes nothing; fixed, all are written", { timeout: 120_000 }, async () => {
    await makeTeam("Existing Falcons");
    // Teams of 10 here (the team size cap's own tests: tests/integration/team-size.test.ts).
    await ensureEventSettings();
    await updateTeamSizeCap(testAdmin, 10);
    const admin = await makeUser("admin");
    const cookie = await sessionCookie(admin.id);
    const before = await usersCount();

    // Line 58 of the file is data row 57 (the header is line 1).
    const bad = accountsCsv(57);
    const preview = await post(cookie, upload("accounts", bad, "people.csv"));
    expect(preview.init?.status).toBe(400);
    expect(preview.data.step).toBe("preview");
    expect(preview.data.check?.issues).toEqual([{ row: 58, messages: [`role: ${m.roleInvalid}`] }]);

    // Posting the import anyway (the content checked again) writes nothing.
    const forced = await post(cookie, new URLSearchParams({ intent: "import", kind: "accounts", content: bad, fileName: "people.csv" }));
    expect(forced.init?.status).toBe(400);
    expect(forced.data.check?.issues.map((issue) => issue.row)).toEqual([58]);
    expect(await usersCount()).toBe(before);
    expect(await getDb().select().from(teams).where(eq(teams.name, "Team 20"))).toEqual([]);

    const good = accountsCsv();
    const fixed = await post(cookie, upload("accounts", good, "people.csv"));
    expect(fixed.init?.status).toBe(200);
    expect(fixed.data.check).toMatchObject({ fileError: null, issues: [] });
    expect(fixed.data.check?.rows).toHaveLength(201);
    expect(fixed.data.content).toBe(good);

    const done = await post(cookie, new URLSearchParams({ intent: "import", kind: "accounts", content: String(fixed.data.content), fileName: "people.csv" }));
    expect(done.data.step).toBe("done");
    expect(await usersCount()).toBe(before + 201);

    // Existing team matched without regard to case; 19 new teams; all touched teams marked for the standings.
    const [falcons] = await getDb().select().from(teams).where(sql`lower(${teams.name}) = 'existing falcons'`);
    const [player3] = await getDb().select().from(users).where(eq(users.name, "player3"));
    expect(player3.teamId).toBe(falcons.id);
    expect(await verifyPassword(player3.passwordHash, "password-3")).toBe(true);
    const [judge] = await getDb().select().from(users).where(eq(users.name, "judge.import"));
    expect(judge).toMatchObject({ role: "judge", teamId: null });
    expect((await getDb().select().from(standingsOutbox)).length).toBeGreaterThanOrEqual(20);

    // Generated passwords: returned once, in the page and its CSV download; they work.
    const accounts = done.data.accounts as Array<{ name: string; generatedPassword: string | null }>;
    const generated = accounts.filter((account) => account.generatedPassword);
    expect(generated.map((account) => account.name).sort()).toEqual(["judge.import", "player100", "player150", "player200", "player50"]);
    const [player50] = await getDb().select().from(users).where(eq(users.name, "player50"));
    expect(await verifyPassword(player50.passwordHash, generated.find((account) => account.name === "player50")!.generatedPassword!)).toBe(true);
    const csv = Buffer.from(String(done.data.csv).split(",")[1], "base64").toString("utf8");
    expect(csv).toContain("player50");
    expect(csv).not.toContain("password-3");

    // Importing the same file again: every name is now taken, nothing is written.
    const again = await importAccounts(testAdmin, good);
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.check.issues).toHaveLength(201);
    expect(await usersCount()).toBe(before + 201);
  });

  it("names duplicates within the file, missing teams, teams given to staff, and refuses a file without its columns", async () => {
    const check = await previewAccountsImport("name,role,team,password\nsam,participant,,\nSAM,participant,A,\nboss,admin,A,\nshort,judge,,abc\nnobody,,,\n");
    expect(check.issues).toEqual([
      { row: 2, messages: [`team: ${messages.dashboard.teamRequired}`] },
      { row: 3, messages: [`name: ${m.duplicateInFile(2)}`] },
      { row: 4, messages: [`team: ${m.staffTeam}`] },
      { row: 5, messages: [`password: ${messages.dashboard.passwordTooShort}`] },
      { row: 6, messages: [`role: ${messages.dashboard.roleRequired}`] },
    ]);
    expect((await previewAccountsImport("user,role\nx,judge\n")).fileError).toBe(m.missingColumns(["name"]));
    expect((await previewAccountsImport("name,role,wave\nx,judge,1\n")).fileError).toMatch(/Unknown column wave/);
    expect((await previewAccountsImport("name,role\n")).fileError).toBe(m.empty);
    expect((await previewAccountsImport('name,role\n"x,judge\n')).fileError).toMatch(/could not be read as CSV/);
  });

  it("is for admins only", async () => {
    const judge = await makeUser("judge");
    const request = new Request(url, { headers: { Cookie: await sessionCookie(judge.id) } });
    await expect(loader({ request, params: {}, context: {} })).rejects.toMatchObject({ init: { status: 403 } });
  });
});

describe("importing challenges", () => {
  it("from CSV (quoted cells, a BOM) and from JSON, all or nothing", async () => {
    const csv = '\uFEFFtitle,description,points,category,difficulty,hints,wave\r\n"Cipher, part 1","Decode ""this""",100,CS,Medium,"Think\nCaesar",1\r\nDraft,Later,50,AI,,,\r\n';
    expect(await previewChallengesImport(csv, "c.csv")).toMatchObject({ fileError: null, issues: [], rows: [{ row: 2, title: "Cipher, part 1", wave: 1 }, { title: "Draft", wave: null }] });
    expect(await importChallenges(testAdmin, csv, "c.csv")).toEqual({ ok: true, created: 2 });
    const [cipher] = await getDb().select().from(challenges).where(eq(challenges.title, "Cipher, part 1"));
    expect(cipher).toMatchObject({ description: 'Decode "this"', hints: "Think\nCaesar", points: 100, status: "active", difficulty: "Medium" });

    const json = JSON.stringify({ challenges: [{ title: "Logo", description: "Draw", points: 80, category: "GD", wave: 2 }, { title: "", description: "x", points: 0, category: "ZZ" }] });
    const refused = await importChallenges(testAdmin, json, "c.json");
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.check.issues).toHaveLength(1);
      expect(refused.check.issues[0].row).toBe(2);
      expect(refused.check.issues[0].messages).toEqual(
        expect.arrayContaining([`title: ${messages.dashboard.titleRequired}`, `points: ${messages.dashboard.pointsInvalid}`, `category: ${messages.dashboard.categoryRequired}`]),
      );
    }
    expect(await getDb().select().from(challenges).where(eq(challenges.title, "Logo"))).toEqual([]);
    expect(await importChallenges(testAdmin, JSON.stringify([{ title: "Logo", description: "Draw", points: 80, category: "GD", wave: 2 }]), "c.json")).toEqual({ ok: true, created: 1 });
    expect((await previewChallengesImport('[{"title":"x","colour":"red"}]', "c.json")).fileError).toMatch(/Unknown column colour/);
  });

  it("carries each challenge's Arabic beside its English (title_ar, description_ar; empty: none)", async () => {
    const stamp = Date.now();
    const csv = `title,description,points,category,wave,title_ar,description_ar\n"Lantern ${stamp}","Light it.",40,PS,1,"الفانوس ${stamp}","أشعله."\n"Rope ${stamp}","Climb it.",30,PS,1,,\n`;
    expect((await previewChallengesImport(csv, "c.csv")).rows).toMatchObject([{ title: `Lantern ${stamp}`, titleAr: `الفانوس ${stamp}` }, { title: `Rope ${stamp}`, titleAr: null }]);
    expect(await importChallenges(testAdmin, csv, "c.csv")).toEqual({ ok: true, created: 2 });
    const [lantern] = await getDb().select().from(challenges).where(eq(challenges.title, `Lantern ${stamp}`));
    expect(lantern).toMatchObject({ titleAr: `الفانوس ${stamp}`, descriptionAr: "أشعله." });
    const [rope] = await getDb().select().from(challenges).where(eq(challenges.title, `Rope ${stamp}`));
    expect(rope).toMatchObject({ titleAr: null, descriptionAr: null });
    // A problem names the file's column.
    const long = JSON.stringify([{ title: "x", description: "y", points: 1, category: "PS", title_ar: "ب".repeat(201) }]);
    expect((await previewChallengesImport(long, "c.json")).issues[0].messages).toEqual([`title_ar: ${messages.dashboard.tooLong}`]);
  });

  it("through the page: preview, then import", async () => {
    const admin = await makeUser("admin");
    const cookie = await sessionCookie(admin.id);
    const content = "title,description,points,category\nRiddle,Solve it,30,PS\n";
    const preview = await post(cookie, upload("challenges", content, "more.csv"));
    expect(preview.data.check).toMatchObject({ fileError: null, issues: [], rows: [{ title: "Riddle" }] });
    const done = await post(cookie, new URLSearchParams({ intent: "import", kind: "challenges", content, fileName: "more.csv" }));
    expect(done.data).toMatchObject({ step: "done", kind: "challenges", created: 1 });

    const missing = await post(cookie, new URLSearchParams({ intent: "preview", kind: "challenges" }));
    expect(missing.init?.status).toBe(400);
    expect(missing.data.check?.fileError).toBe(m.fileRequired);
  });

  it("a file past 2 MB gets the size message on the preview step (the form's fields before the file are read)", async () => {
    const cookie = await sessionCookie((await makeUser("admin")).id);
    const tooLarge = await post(cookie, upload("challenges", "x".repeat(2_000_001), "huge.csv"));
    expect(tooLarge.init?.status).toBe(413);
    expect(tooLarge.data).toMatchObject({ step: "preview", kind: "challenges" });
    expect(tooLarge.data.check?.fileError).toBe(m.fileTooLarge(2_000_000));
  });
});
