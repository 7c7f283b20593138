/** Teams and users through the API: the dashboard's rules, messages and statuses as JSON. */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { users } from "../../db/schema.ts";
import { TeamOutSchema, TeamRefSchema, UserOutSchema } from "../../app/modules/api/schemas.ts";
import { verifyPassword } from "../../app/modules/auth/password.server.ts";
import { FORM_MAX_BYTES } from "../../app/glue/request-bodies.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { translateMessage } from "../../app/modules/i18n/server-messages.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import * as teamsRoute from "../../app/routes/api.v1.teams.tsx";
import * as teamRoute from "../../app/routes/api.v1.teams.$id.tsx";
import * as usersRoute from "../../app/routes/api.v1.users.tsx";
import * as userRoute from "../../app/routes/api.v1.users.$id.tsx";
import { makeChallenge, makeSubmission } from "../support/fixtures.ts";
import { makeCallers, send } from "../support/api.ts";

const m = messages.dashboard;
let callers: Awaited<ReturnType<typeof makeCallers>>;
let admin: { token: string };

beforeAll(async () => {
  callers = await makeCallers();
  admin = { token: callers.tokens.admin };
});

describe("teams", () => {
  it("creates, lists, renames and deletes", async () => {
    const created = await send(teamsRoute, "POST", "/teams", { ...admin, json: { name: "  Kraken " } });
    expect(created.status).toBe(201);
    const team = TeamRefSchema.parse(created.body);
    expect(team.name).toBe("Kraken");

    const list = z.array(TeamOutSchema).parse((await send(teamsRoute, "GET", "/teams", admin)).body);
    expect(list.find((row) => row.id === team.id)).toEqual({ id: team.id, name: "Kraken", division: null, members: 0, submissions: 0 });

    const renamed = await send(teamRoute, "PATCH", `/teams/${team.id}`, { ...admin, json: { name: "Kraken II" } }, { id: String(team.id) });
    expect(renamed).toMatchObject({ status: 200, body: { id: team.id, name: "Kraken II" } });

    const deleted = await send(teamRoute, "DELETE", `/teams/${team.id}`, admin, { id: String(team.id) });
    expect(deleted.status).toBe(204);
    const again = await send(teamRoute, "DELETE", `/teams/${team.id}`, admin, { id: String(team.id) });
    expect(again).toMatchObject({ status: 404, body: { code: "not_found", message: m.teamNotFound } });
  });

  it("answers 400 with field errors, 409 for a duplicate name or a team still in use", async () => {
    const blank = await send(teamsRoute, "POST", "/teams", { ...admin, json: { name: "   " } });
    expect(blank).toMatchObject({ status: 400, body: { code: "validation_failed", message: m.nameRequired, fieldErrors: { name: [m.nameRequired] } } });

    await send(teamsRoute, "POST", "/teams", { ...admin, json: { name: "Basilisk" } });
    const duplicate = await send(teamsRoute, "POST", "/teams", { ...admin, json: { name: "BASILISK" } });
    expect(duplicate).toMatchObject({ status: 409, body: { code: "conflict", message: m.teamNameTaken, fieldErrors: { name: [m.teamNameTaken] } } });

    const used = callers.team;
    await makeSubmission(used.id, (await makeChallenge()).id, callers.users.participant.id);
    const refused = await send(teamRoute, "DELETE", `/teams/${used.id}`, admin, { id: String(used.id) });
    expect(refused).toMatchObject({ status: 409, body: { code: "conflict", message: m.teamHasSubmissions } });

    const badId = await send(teamRoute, "PATCH", "/teams/abc", { ...admin, json: { name: "x" } }, { id: "abc" });
    expect(badId.status).toBe(404);
  });

  it("refuses a body over 256 KB (413) and an undocumented method (405 with Allow)", async () => {
    const huge = await send(teamsRoute, "POST", "/teams", { ...admin, json: { name: "x".repeat(FORM_MAX_BYTES) } });
    expect(huge).toMatchObject({ status: 413, body: { code: "payload_too_large", message: messages.errors.bodyTooLarge(FORM_MAX_BYTES) } });
    const put = await send(teamsRoute, "PUT", "/teams", { ...admin, json: {} });
    expect(put).toMatchObject({ status: 405, body: { code: "method_not_allowed" } });
    expect(put.headers.get("Allow")).toBe("GET, POST");
  });

  it("answers messages built from values in Arabic when Accept-Language asks for it, with the same code", async () => {
    const arabic = { ...admin, headers: { "Accept-Language": "ar-DZ,ar;q=0.9,en;q=0.5" } };
    const huge = await send(teamsRoute, "POST", "/teams", { ...arabic, json: { name: "x".repeat(FORM_MAX_BYTES) } });
    expect(huge).toMatchObject({ status: 413, body: { code: "payload_too_large", message: translateMessage(messages.errors.bodyTooLarge(FORM_MAX_BYTES), "ar") } });
    expect(huge.body?.message).toMatch(/^الطلب أكبر من 256 KB/);
    expect(huge.headers.get("Content-Language")).toBe("ar");
    const put = await send(teamsRoute, "PUT", "/teams", { ...arabic, json: {} });
    expect(put).toMatchObject({ status: 405, body: { code: "method_not_allowed", message: "هذا المسار لا يقبل إلا \u2068GET, POST\u2069." } });
    // A team with members: the count chooses Arabic's form (two members: the dual).
    const team = TeamRefSchema.parse((await send(teamsRoute, "POST", "/teams", { ...admin, json: { name: `Members ${Date.now()}` } })).body);
    for (const name of ["m1", "m2"].map((n) => `${n}-${team.id}`)) {
      await send(usersRoute, "POST", "/users", { ...admin, json: { name, password: "secret-pass-1", role: "participant", teamId: team.id } });
    }
    const refused = await send(teamRoute, "DELETE", `/teams/${team.id}`, arabic, { id: String(team.id) });
    expect(refused).toMatchObject({ status: 409, body: { code: "conflict", message: "ما زال في هذا الفريق عضوان: انقلهما أو احذفهما أولًا" } });
    const english = await send(teamRoute, "DELETE", `/teams/${team.id}`, admin, { id: String(team.id) });
    expect(english.body).toMatchObject({ message: m.teamHasMembers(2) });
  });
});

describe("users", () => {
  it("creates a participant (password hashed, never sent back), edits with a blank password kept, deletes", async () => {
    const created = await send(usersRoute, "POST", "/users", {
      ...admin,
      json: { name: "zoe", password: "secret-pass-1", role: "participant", teamId: callers.team.id },
    });
    expect(created.status).toBe(201);
    const user = UserOutSchema.parse(created.body);
    expect(user).toEqual({ id: user.id, name: "zoe", email: null, language: "en", role: "participant", teamId: callers.team.id, team: callers.team.name });
    expect(JSON.stringify(created.body)).not.toMatch(/password|secret/);

    const edited = await send(userRoute, "PATCH", `/users/${user.id}`, { ...admin, json: { name: "Zoe", role: "participant", teamId: callers.team.id } }, { id: String(user.id) });
    expect(edited).toMatchObject({ status: 200, body: { name: "Zoe" } });
    const [row] = await getDb().select().from(users).where(eq(users.id, user.id));
    expect(await verifyPassword(row.passwordHash, "secret-pass-1")).toBe(true);

    const list = z.array(UserOutSchema).parse((await send(usersRoute, "GET", "/users", admin)).body);
    expect(list.map((listed) => listed.name)).toContain("Zoe");

    expect((await send(userRoute, "DELETE", `/users/${user.id}`, admin, { id: String(user.id) })).status).toBe(204);
  });

  it("refuses what the user form refuses, with its messages", async () => {
    const missing = await send(usersRoute, "POST", "/users", { ...admin, json: { name: "x", role: "participant" } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "validation_failed", fieldErrors: { password: [messages.mail.passwordOrAddress], teamId: [m.teamRequired] } });

    const short = await send(usersRoute, "POST", "/users", { ...admin, json: { name: "x", role: "judge", password: "short" } });
    expect(short.body).toMatchObject({ fieldErrors: { password: [m.passwordTooShort] } });

    const duplicate = await send(usersRoute, "POST", "/users", { ...admin, json: { name: callers.users.judge.name.toUpperCase(), role: "judge", password: "long-enough" } });
    expect(duplicate).toMatchObject({ status: 409, body: { code: "conflict", message: m.userNameTaken } });

    const self = callers.users.admin;
    const demote = await send(userRoute, "PATCH", `/users/${self.id}`, { ...admin, json: { name: self.name, role: "judge" } }, { id: String(self.id) });
    expect(demote).toMatchObject({ status: 409, body: { message: m.cannotDemoteSelf } });
    const suicide = await send(userRoute, "DELETE", `/users/${self.id}`, admin, { id: String(self.id) });
    expect(suicide).toMatchObject({ status: 409, body: { message: m.cannotDeleteSelf } });

    const gone = await send(userRoute, "PATCH", "/users/999999", { ...admin, json: { name: "x", role: "judge" } }, { id: "999999" });
    expect(gone).toMatchObject({ status: 404, body: { message: m.userNotFound } });
  });
});
