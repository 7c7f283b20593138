/**
 * Turning registrations into participant accounts (dashboard, beyond the original platform), on a server that
 * sends no mail (SMTP_HOST=none): each account gets a password shown once. With mail, each is mailed a link
 * instead: tests/integration/mail-links.test.ts.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { registrations, standingsOutbox, teams, users } from "../../db/schema.ts";
import { verifyLogin } from "../../app/modules/auth/login.server.ts";
import {
  baseUserName,
  createAccountsFromRegistrations,
  generatePassword,
} from "../../app/modules/registrations/accounts.server.ts";
import { BOM } from "../../app/modules/exports/csv-format.server.ts";
import { accountsCsvDataUrl } from "../../app/modules/registrations/csv.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { makeTeam, makeUser, testAdmin } from "../support/fixtures.ts";
import { resetEnvForTests } from "../../app/infrastructure/env.server.ts";

process.env.SMTP_HOST = "none";
resetEnvForTests();

let counter = 0;
async function makeRegistration(over: Partial<typeof registrations.$inferInsert> = {}) {
  counter += 1;
  const [row] = await getDb()
    .insert(registrations)
    .values({
      name: "Amina",
      lastName: "Benali",
      email: `acc${counter}@example.com`,
      phone: "0555",
      nationalId: "1234",
      skill: "AI",
      tshirtSize: "M",
      hasTeam: false,
      ...over,
    })
    .returning();
  return row;
}

describe("user names and passwords", () => {
  it("derives a login from the name, without accents or symbols, else from the email", () => {
    expect(baseUserName("Zoë", "Müller-Smith", "z@example.com")).toBe("zoe.mullersmith");
    expect(baseUserName("Jean Luc", "O'Neil", "j@example.com")).toBe("jeanluc.oneil");
    expect(baseUserName("محمد", "الأمين", "m.amine_93@example.com")).toBe("mamine93");
    expect(baseUserName("محمد", "الأمين", "___@example.com")).toBe("participant");
    expect(baseUserName("A".repeat(100), "B", "x@example.com").length).toBeLessThanOrEqual(40);
  });

  it("generates strong, readable passwords that a spreadsheet will not mangle", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const password = generatePassword();
      expect(password).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{4}(-[a-km-zA-HJ-NP-Z2-9]{4}){3}$/);
      seen.add(password);
    }
    expect(seen.size).toBe(200);
  });
});

describe("createAccountsFromRegistrations", () => {
  it("creates participants with unique names, joins or creates teams, links the registrations, stores only hashes", async () => {
    const existing = await makeTeam("Night Owls");
    await makeUser("participant", null, "amina.benali");
    const a = await makeRegistration({ hasTeam: true, teamName: "night owls" });
    const b = await makeRegistration({ hasTeam: true, teamName: "Brand New Crew" });
    const c = await makeRegistration({ name: "محمد", lastName: "الأمين", email: "mo.amine@example.com", hasTeam: false });
    const d = await makeRegistration({ hasTeam: true, teamName: "BRAND NEW CREW" });

    const { created, skipped } = await createAccountsFromRegistrations(testAdmin, [a.id, b.id, c.id, d.id]);
    expect(skipped).toBe(0);
    expect(created.map((account) => account.userName)).toEqual(["amina.benali2", "amina.benali3", "moamine", "amina.benali4"]);
    expect(created.map((account) => account.teamName)).toEqual(["Night Owls", "Brand New Crew", null, "Brand New Crew"]);
    expect(created.map((account) => account.teamCreated)).toEqual([false, true, false, false]);

    // One team per name, whatever the case.
    const crews = await getDb().select().from(teams).where(sql`lower(${teams.name}) = 'brand new crew'`);
    expect(crews).toHaveLength(1);

    const rows = await getDb().select().from(registrations).where(inArray(registrations.id, [a.id, b.id, c.id, d.id])).orderBy(registrations.id);
    const accounts = await getDb().select().from(users).where(inArray(users.id, rows.map((row) => row.userId!)));
    expect(accounts).toHaveLength(4);
    for (const account of accounts) {
      expect(account.role).toBe("participant");
      expect(account.passwordHash).toMatch(/^\$argon2id\$/);
    }
    const first = accounts.find((account) => account.id === rows[0].userId)!;
    expect(first.teamId).toBe(existing.id);
    const noTeam = accounts.find((account) => account.id === rows[2].userId)!;
    expect(noTeam.teamId).toBeNull();

    // The shown password logs in; it is stored nowhere in plain text.
    expect(await verifyLogin(created[0].userName, created[0].password!)).toMatchObject({ name: "amina.benali2", teamId: existing.id });
    const dump = JSON.stringify(await getDb().execute(sql`select * from users`)) + JSON.stringify(await getDb().select().from(registrations));
    for (const account of created) expect(dump).not.toContain(account.password!);

    // The touched teams' standings are marked stale (membership changed).
    const stale = await getDb().select({ teamId: standingsOutbox.teamId }).from(standingsOutbox);
    expect(stale.map((row) => row.teamId)).toEqual(expect.arrayContaining([existing.id, crews[0].id]));
  });

  it("never makes a second account for the same registration", async () => {
    const r = await makeRegistration({ name: "Once", lastName: "Only" });
    const first = await createAccountsFromRegistrations(testAdmin, [r.id, r.id]);
    expect(first.created).toHaveLength(1);
    const again = await createAccountsFromRegistrations(testAdmin, [r.id, 999_999]);
    expect(again).toEqual({ created: [], refused: [], skipped: 2, linksMailed: false });
    const [row] = await getDb().select().from(registrations).where(eq(registrations.id, r.id));
    expect(row.userId).not.toBeNull();
    const named = await getDb().select().from(users).where(sql`lower(${users.name}) like 'once.only%'`);
    expect(named).toHaveLength(1);
  });

  it("two admins converting at once get distinct names and one team", async () => {
    const regs = await Promise.all(
      Array.from({ length: 4 }, () => makeRegistration({ name: "Twin", lastName: "Race", hasTeam: true, teamName: "Race Team" })),
    );
    const [x, y] = await Promise.all([
      createAccountsFromRegistrations(testAdmin, [regs[0].id, regs[1].id]),
      createAccountsFromRegistrations(testAdmin, [regs[2].id, regs[3].id]),
    ]);
    const names = [...x.created, ...y.created].map((account) => account.userName).sort();
    expect(names).toEqual(["twin.race", "twin.race2", "twin.race3", "twin.race4"]);
    expect(await getDb().select().from(teams).where(sql`lower(${teams.name}) = 'race team'`)).toHaveLength(1);
  });

  it("offers the logins once as a CSV data URL with a BOM", async () => {
    const url = accountsCsvDataUrl([
      { fullName: "محمد الأمين", email: "m@example.com", userName: "mamine", password: "abcd-efgh-jkmn-pqrs", teamName: null },
    ]);
    expect(url.startsWith("data:text/csv;charset=utf-8;base64,")).toBe(true);
    const csv = Buffer.from(url.split(",")[1], "base64").toString("utf8");
    expect(csv.startsWith(BOM)).toBe(true);
    expect(csv).toBe(`${BOM}Full Name,Email,Username,Password,Team\r\nمحمد الأمين,m@example.com,mamine,abcd-efgh-jkmn-pqrs,\r\n`);
  });
});
