/**
 * The team size cap (docs/domain.md "Teams"): one rule, `admitMembers` (app/modules/teams/team-size.server.ts),
 * refusing a member past the cap with one message on every path that puts a user in a team: the dashboard's
 * Users page (and its module functions), the API, the bulk import, accounts made from registrations. Two adds
 * racing for a team's last place: exactly one gets it. A lowered cap keeps the members a team has.
 */
import { count, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { registrations, users } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { importAccounts, previewAccountsImport } from "../../app/modules/imports/accounts-import.server.ts";
import { createAccountsFromRegistrations } from "../../app/modules/registrations/accounts.server.ts";
import { readTeamSizeCap, TeamFullError, updateTeamSizeCap } from "../../app/modules/teams/team-size.server.ts";
import { createUser, updateUser } from "../../app/modules/users/users.server.ts";
import { action as usersPage } from "../../app/routes/dashboard.users.tsx";
import { action as settingsPage } from "../../app/routes/dashboard.settings.tsx";
import * as usersRoute from "../../app/routes/api.v1.users.tsx";
import * as userRoute from "../../app/routes/api.v1.users.$id.tsx";
import type { UserActor } from "../../app/modules/audit/audit.server.ts";
import { actorFor, ensureEventSettings, makeTeam, makeUser, sessionCookie, testAdmin } from "../support/fixtures.ts";
import { makeCallers, send } from "../support/api.ts";

const full = messages.teamSize.full;
let callers: Awaited<ReturnType<typeof makeCallers>>;
let admin: UserActor;

async function membersOf(teamId: number): Promise<number> {
  const [row] = await getDb().select({ n: count() }).from(users).where(eq(users.teamId, teamId));
  return row.n;
}

/** A fresh team with `n` members (made directly, as a seed would). */
async function teamWith(n: number) {
  const team = await makeTeam();
  for (let index = 0; index < n; index++) await makeUser("participant", team.id);
  return team;
}

let serial = 0;
const newUser = (teamId: number) => ({ name: `capped-${process.pid}-${++serial}`, role: "participant" as const, teamId, password: "long-enough-password" });

beforeAll(async () => {
  await ensureEventSettings();
  callers = await makeCallers();
  const row = await makeUser("admin");
  admin = actorFor(row.id, row.name, "admin");
});

beforeEach(async () => {
  // Every test starts at the default.
  await updateTeamSizeCap(testAdmin, 5);
});

describe("the cap, in the module functions the Users page calls", () => {
  it("is 5 by default, as the registration form says", async () => {
    expect(await readTeamSizeCap()).toBe(5);
  });

  it("takes a fifth member, refuses a sixth with the message, and refuses moving someone into a full team", async () => {
    const team = await teamWith(4);
    await createUser(testAdmin, newUser(team.id));
    expect(await membersOf(team.id)).toBe(5);
    await expect(createUser(testAdmin, newUser(team.id))).rejects.toMatchObject({ message: full(team.name, 5), status: 409, field: "teamId" });
    const elsewhere = await makeUser("participant", (await makeTeam()).id);
    await expect(updateUser(admin, { id: elsewhere.id, name: elsewhere.name, role: "participant", teamId: team.id })).rejects.toBeInstanceOf(TeamFullError);
    expect(await membersOf(team.id)).toBe(5);
  });

  it("a lowered cap keeps a team's members (their edits go through), and takes no one new until the team is below it", async () => {
    const team = await teamWith(5);
    await updateTeamSizeCap(testAdmin, 3);
    const [member] = await getDb().select().from(users).where(eq(users.teamId, team.id)).limit(1);
    await updateUser(admin, { id: member.id, name: `${member.name}-renamed`, role: "participant", teamId: team.id });
    expect(await membersOf(team.id)).toBe(5);
    await expect(createUser(testAdmin, newUser(team.id))).rejects.toMatchObject({ message: full(team.name, 3) });
    // Staff have no team: never counted, never refused.
    await createUser(testAdmin, { name: `judge-${process.pid}-${++serial}`, role: "judge", password: "long-enough-password" });
  });

  it("two adds racing for a team's last place: exactly one gets it", async () => {
    for (let round = 0; round < 4; round++) {
      const team = await teamWith(4);
      const results = await Promise.allSettled([createUser(testAdmin, newUser(team.id)), createUser(testAdmin, newUser(team.id))]);
      expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
      const refusal = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
      expect(refusal.reason).toBeInstanceOf(TeamFullError);
      expect(await membersOf(team.id)).toBe(5);
    }
  });

  it("two members moved into a team with one place left at once: one moves, one stays", async () => {
    for (let round = 0; round < 4; round++) {
      const team = await teamWith(4);
      const [a, b] = [await makeUser("participant", (await makeTeam()).id), await makeUser("participant", (await makeTeam()).id)];
      const results = await Promise.allSettled([a, b].map((user) => updateUser(admin, { id: user.id, name: user.name, role: "participant", teamId: team.id })));
      expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
      expect(await membersOf(team.id)).toBe(5);
    }
  });
});

describe("the cap on the dashboard's pages", () => {
  it("the Users page answers 409 with the message and keeps what was typed", async () => {
    const team = await teamWith(5);
    const signedIn = await makeUser("admin");
    const form = new URLSearchParams({ name: `sixth-${process.pid}`, password: "long-enough-password", role: "participant", teamId: String(team.id), intent: "save" });
    const request = new Request("http://localhost/dashboard/users", { method: "POST", headers: { Cookie: await sessionCookie(signedIn.id), Origin: "http://localhost" }, body: form });
    const answer = (await usersPage({ request, params: {}, context: {} })) as unknown as { data: { error: Record<string, string[]>; initialValue: Record<string, string> }; init: { status: number } };
    expect(answer.init.status).toBe(409);
    expect(answer.data.error[""]).toEqual([messages.dashboard.warn(full(team.name, 5))]);
    expect(answer.data.initialValue).toMatchObject({ name: `sixth-${process.pid}`, teamId: String(team.id) });
    expect(await membersOf(team.id)).toBe(5);
  });

  it("Settings saves the cap (1 to 100) and refuses anything else beside the field", async () => {
    const signedIn = await makeUser("admin");
    const cookie = await sessionCookie(signedIn.id);
    const post = (teamSizeCap: string) =>
      settingsPage({ request: new Request("http://localhost/dashboard/settings", { method: "POST", headers: { Cookie: cookie, Origin: "http://localhost" }, body: new URLSearchParams({ intent: "team-cap", teamSizeCap }) }), params: {}, context: {} });
    const saved = (await post("4")) as Response;
    expect(saved.status).toBe(302);
    expect(await readTeamSizeCap()).toBe(4);
    for (const bad of ["0", "101", "2.5", "five", ""]) {
      const refused = (await post(bad)) as unknown as { data: { result: { error: Record<string, string[]> } }; init: { status: number } };
      expect(refused.init.status, bad).toBe(400);
      expect(refused.data.result.error.teamSizeCap, bad).toEqual([messages.teamSize.capInvalid]);
    }
    expect(await readTeamSizeCap()).toBe(4);
  });
});

describe("the cap through the API", () => {
  it("POST /users and PATCH /users/{id} into a full team: 409 with the message, on the teamId field", async () => {
    const team = await teamWith(5);
    const created = await send(usersRoute, "POST", "/users", { token: callers.tokens.admin, json: newUser(team.id) });
    expect(created).toMatchObject({ status: 409, body: { code: "conflict", message: full(team.name, 5), fieldErrors: { teamId: [full(team.name, 5)] } } });

    const mover = await makeUser("participant", (await makeTeam()).id);
    const moved = await send(userRoute, "PATCH", `/users/${mover.id}`, { token: callers.tokens.admin, json: { name: mover.name, role: "participant", teamId: team.id } }, { id: String(mover.id) });
    expect(moved).toMatchObject({ status: 409, body: { message: full(team.name, 5) } });
    expect(await membersOf(team.id)).toBe(5);

    await updateTeamSizeCap(testAdmin, 6);
    const sixth = await send(usersRoute, "POST", "/users", { token: callers.tokens.admin, json: newUser(team.id) });
    expect(sixth.status).toBe(201);
  });
});

describe("the cap in the bulk import", () => {
  it("refuses the rows past the cap, in file order, with the message; nothing is written; within the cap all are", async () => {
    const team = await teamWith(3);
    const stamp = `${process.pid}-${++serial}`;
    const rows = [`a-${stamp}`, `b-${stamp}`, `c-${stamp}`, `d-${stamp}`].map((name) => `${name},participant,${team.name.toUpperCase()},long-enough-password`);
    const file = `name,role,team,password\n${rows.join("\n")}\njudge-${stamp},judge,,\n`;
    const preview = await previewAccountsImport(file);
    expect(preview.issues).toEqual([
      { row: 4, messages: [`team: ${full(team.name, 5)}`] },
      { row: 5, messages: [`team: ${full(team.name, 5)}`] },
    ]);
    const before = await membersOf(team.id);
    const refused = await importAccounts(testAdmin, file);
    expect(refused.ok).toBe(false);
    expect(await membersOf(team.id)).toBe(before);

    // A new team in the file counts from 0: six rows for it, the sixth refused.
    const fresh = `Fresh ${stamp}`;
    const six = Array.from({ length: 6 }, (_, index) => `n${index}-${stamp},participant,${fresh},long-enough-password`);
    expect((await previewAccountsImport(`name,role,team,password\n${six.join("\n")}\n`)).issues).toEqual([{ row: 7, messages: [`team: ${full(fresh, 5)}`] }]);

    const fits = await importAccounts(testAdmin, `name,role,team,password\n${rows.slice(0, 2).join("\n")}\n`);
    expect(fits.ok).toBe(true);
    expect(await membersOf(team.id)).toBe(5);
  });

  it("a member added on the Users page between the preview and the import refuses the import whole, naming the row", async () => {
    const team = await teamWith(4);
    const file = `name,role,team,password\nlate-${process.pid}-${++serial},participant,${team.name},long-enough-password\n`;
    expect((await previewAccountsImport(file)).issues).toEqual([]);
    await createUser(testAdmin, newUser(team.id));
    const result = await importAccounts(testAdmin, file);
    expect(result).toMatchObject({ ok: false, check: { issues: [{ row: 2, messages: [`team: ${full(team.name, 5)}`] }] } });
    expect(await membersOf(team.id)).toBe(5);
  });
});

describe("the cap on accounts made from registrations", () => {
  it("registering makes no member; making accounts leaves a full team's registrations without one, listed with the message", async () => {
    const team = await teamWith(4);
    const ids: number[] = [];
    for (const name of ["Rania", "Sami"]) {
      const [row] = await getDb()
        .insert(registrations)
        .values({ name, lastName: `Cap${process.pid}`, email: `${name}-${process.pid}-${++serial}@example.org`, phone: "0555", nationalId: "1", skill: "AI", tshirtSize: "M", hasTeam: true, teamName: team.name.toLowerCase() })
        .returning({ id: registrations.id });
      ids.push(row.id);
    }
    expect(await membersOf(team.id)).toBe(4);
    const result = await createAccountsFromRegistrations(testAdmin, ids);
    expect(result.created.map((account) => account.registrationId)).toEqual([ids[0]]);
    expect(result.refused).toEqual([{ registrationId: ids[1], fullName: `Sami Cap${process.pid}`, teamName: team.name, message: full(team.name, 5) }]);
    expect(result.skipped).toBe(0);
    expect(await membersOf(team.id)).toBe(5);
    const [left] = await getDb().select({ userId: registrations.userId }).from(registrations).where(eq(registrations.id, ids[1]));
    expect(left.userId).toBeNull();
  });
});
