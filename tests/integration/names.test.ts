/**
 * User and team names: kept in NFKC form, invisible characters refused, and a name that looks the same
 * as one already there (case, full-width forms, Cyrillic or digit look-alikes) refused everywhere a
 * name is made: the dashboard, the API, the import, accounts from registrations; and by the database
 * itself when two requests race.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { registrations, teams, users } from "../../db/schema.ts";
import { rekeyNames } from "../../scripts/lib/name-keys.ts";
import { messages } from "../../app/modules/messages.ts";
import { nameKey } from "../../app/modules/names/names.ts";
import { TeamFormSchema } from "../../app/modules/teams/schema.ts";
import { UserCreateSchema } from "../../app/modules/users/schema.ts";
import { RegistrationSchema } from "../../app/modules/registrations/schema.ts";
import { createTeam, renameTeam } from "../../app/modules/teams/teams.server.ts";
import { createUser } from "../../app/modules/users/users.server.ts";
import { importAccounts, previewAccountsImport } from "../../app/modules/imports/accounts-import.server.ts";
import { createAccountsFromRegistrations } from "../../app/modules/registrations/accounts.server.ts";
import { verifyLogin } from "../../app/modules/auth/login.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import * as usersApi from "../../app/routes/api.v1.users.tsx";
import { makeCallers, send } from "../support/api.ts";
import { testAdmin } from "../support/fixtures.ts";

const m = messages.dashboard;
let counter = 0;
const fresh = (base: string) => `${base}${"x".repeat(++counter)}`;

describe("names", () => {
  it("are kept in NFKC form; invisible characters are refused with a sentence", () => {
    expect(TeamFormSchema.parse({ name: "  Ｐｈｏｅｎｉｘ\u3000Squad " }).name).toBe("Phoenix Squad");
    for (const hidden of ["Pho\u200Benix", "\u202Exineohp", "Team\u2060A", "\u3164", "A\uFEFF"]) {
      const parsed = TeamFormSchema.safeParse({ name: hidden });
      expect(parsed.success, JSON.stringify(hidden)).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.message)).toContain(m.nameInvisible);
    }
    expect(UserCreateSchema.safeParse({ name: "adm\u200Din", role: "admin", password: "long-enough-1" }).error?.issues[0].message).toBe(m.nameInvisible);
    const registration = RegistrationSchema.safeParse({ teamName: "Nova\u200B" });
    expect(registration.error?.issues.find((issue) => issue.path[0] === "teamName")?.message).toBe(m.nameInvisible);
  });

  it("a team name that looks like one already there is refused: case, full width, Cyrillic, digits", async () => {
    const base = fresh("Phoenix");
    await createTeam(testAdmin, base);
    const lookAlikes = [base.toUpperCase(), base.replace("o", "0"), base.replace("P", "Р").replace("o", "о"), base.replace("P", "Ｐ"), base.replace("i", "ı")];
    for (const name of lookAlikes) {
      const parsed = TeamFormSchema.parse({ name });
      await expect(createTeam(testAdmin, parsed.name), name).rejects.toThrow(m.teamNameTaken);
    }
    const other = await createTeam(testAdmin, fresh("Kraken"));
    await expect(renameTeam(testAdmin, other.id, base.replace("o", "0"))).rejects.toThrow(m.teamNameTaken);
    // A different name is fine, in any script.
    await createTeam(testAdmin, fresh("فريق النور"));
  });

  it("a combining mark does not make a name new: \"kraken1\" with a dot below is taken beside \"kraken1\"", async () => {
    const base = `${fresh("Kraken")}1`;
    await createTeam(testAdmin, base);
    for (const marked of [`${base}\u0323`, base.replace("a", "a\u0301"), `${base}\u0300\u0301\u0302`]) {
      await expect(createTeam(testAdmin, TeamFormSchema.parse({ name: marked }).name), JSON.stringify(marked)).rejects.toThrow(m.teamNameTaken);
    }
    const { tokens } = await makeCallers();
    const user = fresh("kraken");
    await createUser(testAdmin, { name: user, role: "judge", password: "long-enough-1" });
    const answer = await send(usersApi, "POST", "/users", { token: tokens.admin, json: { name: `${user}\u0323`, role: "judge", password: "long-enough-1" } });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: "conflict", message: m.userNameTaken });
  });

  it("user names too, through the API as well", async () => {
    const { tokens, users: callers } = await makeCallers();
    const existing = callers.participant.name;
    await expect(createUser(testAdmin, { name: existing.toUpperCase().replace("I", "1"), role: "judge", password: "long-enough-1" })).rejects.toThrow(m.userNameTaken);
    const answer = await send(usersApi, "POST", "/users", { token: tokens.admin, json: { name: existing.replace("a", "а"), role: "judge", password: "long-enough-1" } });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: "conflict", message: m.userNameTaken });
  });

  it("two requests racing with look-alike names: the database keeps one", async () => {
    const base = fresh("Griffin");
    const outcomes = await Promise.allSettled([createTeam(testAdmin, base), createTeam(testAdmin, base.replace("G", "Ԍ").replace("i", "і")), createTeam(testAdmin, base.toLowerCase())]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    for (const outcome of outcomes) if (outcome.status === "rejected") expect(String(outcome.reason)).toContain(m.teamNameTaken);
    const [{ rows }] = await getDb().select({ rows: sql<number>`count(*)::int` }).from(teams).where(eq(teams.nameKey, nameKey(base)));
    expect(rows).toBe(1);
  });

  it("the import finds look-alikes in the file and against the database, and joins a look-alike team name to the team", async () => {
    const team = await createTeam(testAdmin, fresh("Basilisk"));
    const taken = fresh("amina");
    await createUser(testAdmin, { name: taken, role: "judge", password: "long-enough-1" });
    const newcomer = fresh("yacine");
    const csv = [
      "name,role,team,password",
      `${taken.replace("a", "а")},participant,${team.name},`,
      `${newcomer},participant,${team.name.toUpperCase().replace("I", "1")},`,
      `${newcomer.replace("y", "у")},participant,${team.name},`,
    ].join("\n");
    const preview = await previewAccountsImport(csv);
    expect(preview.issues.map((issue) => [issue.row, issue.messages])).toEqual([
      [2, [`name: ${m.userNameTaken}`]],
      [4, [`name: ${messages.imports.duplicateInFile(3)}`]],
    ]);
    expect((await importAccounts(testAdmin, csv)).ok).toBe(false);

    const ok = await importAccounts(testAdmin, `name,role,team,password\n${newcomer},participant,${team.name.toUpperCase().replace("I", "1")},`);
    expect(ok.ok).toBe(true);
    const [user] = await getDb().select().from(users).where(eq(users.name, newcomer));
    expect(user.teamId).toBe(team.id);
  });

  it("accounts from registrations: a look-alike team name joins the team; a generated login never looks like a taken one", async () => {
    const team = await createTeam(testAdmin, fresh("Wyvern"));
    // "amina.benali" is generated from the registration below; a look-alike of it is taken already.
    await createUser(testAdmin, { name: "amіna.benalі", role: "judge", password: "long-enough-1" });
    const [registration] = await getDb()
      .insert(registrations)
      .values({
        name: "Amina",
        lastName: "Benali",
        email: `${fresh("names")}@example.com`,
        phone: "0555",
        nationalId: "1234",
        skill: "AI",
        tshirtSize: "M",
        hasTeam: true,
        teamName: team.name.replace("W", "Ԝ"),
      })
      .returning();
    const { created } = await createAccountsFromRegistrations(testAdmin, [registration.id]);
    expect(created).toHaveLength(1);
    expect(created[0].userName).toBe("amina.benali2");
    expect(created[0]).toMatchObject({ teamName: team.name, teamCreated: false });
  });

  it("logging in with the full-width form of a name finds the user", async () => {
    const name = fresh("Zed");
    await createUser(testAdmin, { name, role: "judge", password: "long-enough-1" });
    const fullWidth = [...name].map((char) => String.fromCodePoint(char.codePointAt(0)! + 0xfee0)).join("");
    expect(await verifyLogin(fullWidth, "long-enough-1")).not.toBeNull();
  });

  it("migrating re-keys the names already there, and reports two that now count as one", async () => {
    const plain = fresh("Hydra");
    const lookAlike = plain.replace("y", "у");
    const fullWidth = `Ｔｅａｍ ${fresh("Orc")}`;
    for (const [index, name] of [plain, lookAlike, fullWidth].entries()) {
      // As migration 0008 left rows made before it: a provisional key.
      await getDb().execute(sql`insert into teams (name, name_key) values (${name}, ${`${name.toLowerCase()}\u200B${index}-${counter}`})`);
    }
    const { clashes } = await rekeyNames(getDb());
    const rows = await getDb().select().from(teams).where(sql`${teams.name} in (${plain}, ${lookAlike}, ${fullWidth.normalize("NFKC")})`);
    expect(rows.map((row) => row.name).sort()).toEqual([plain, lookAlike, fullWidth.normalize("NFKC")].sort());
    expect(rows.filter((row) => row.nameKey === nameKey(plain))).toHaveLength(1);
    expect(rows.find((row) => row.name === fullWidth.normalize("NFKC"))?.nameKey).toBe(nameKey(fullWidth));
    expect(clashes).toHaveLength(1);
    expect(clashes[0]).toMatch(new RegExp(`^team \\d+ "${lookAlike}"`));
  });

  it("migrating re-keys a name that differs only by a combining mark, reports it, and keeps both rows", async () => {
    const plain = `${fresh("Leviathan")}1`;
    const marked = `${plain}\u0323`;
    // As the rule before combining marks counted left them: two keys (the mark kept after the "1"'s prototype).
    await getDb().execute(sql`insert into teams (name, name_key) values (${plain}, ${nameKey(plain)})`);
    await getDb().execute(sql`insert into teams (name, name_key) values (${marked}, ${`${nameKey(plain)}\u0323`})`);
    const { clashes } = await rekeyNames(getDb());
    const rows = await getDb().select().from(teams).where(sql`${teams.name} in (${plain}, ${marked})`);
    expect(rows.map((row) => row.name).sort()).toEqual([plain, marked].sort());
    expect(rows.find((row) => row.name === plain)?.nameKey).toBe(nameKey(plain));
    expect(clashes.filter((clash) => clash.includes(plain))).toEqual([expect.stringMatching(new RegExp(`^team \\d+ "${marked}"$`))]);
    // Run again (every migrate does): nothing fails, the same clash is reported.
    expect((await rekeyNames(getDb())).clashes.filter((clash) => clash.includes(plain))).toHaveLength(1);
    // The organiser renames one: the clash is gone (and no other test's migration reports it).
    await getDb().delete(teams).where(eq(teams.name, marked));
  });
});
