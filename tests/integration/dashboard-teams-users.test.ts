import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { standingsOutbox, submissions, teams, users } from "../../db/schema.ts";
import { messages } from "../../app/modules/messages.ts";
import { TeamFormSchema } from "../../app/modules/teams/schema.ts";
import { createTeam, DashboardError, deleteTeam, listTeams, renameTeam } from "../../app/modules/teams/teams.server.ts";
import { UserFormSchema } from "../../app/modules/users/schema.ts";
import { createUser, deleteUser, updateUser } from "../../app/modules/users/users.server.ts";
import { verifyPassword } from "../../app/modules/auth/password.server.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { makeChallenge, makeSubmission, makeTeam, makeUser, actorFor, testAdmin } from "../support/fixtures.ts";

const m = messages.dashboard;

function issues(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));
}

describe("team form validation", () => {
  it("requires a name", () => {
    expect(issues(TeamFormSchema.safeParse({}))).toEqual({ name: m.nameRequired });
    expect(issues(TeamFormSchema.safeParse({ name: "   " }))).toEqual({ name: m.nameRequired });
    expect(TeamFormSchema.safeParse({ name: " Falcons " }).data).toEqual({ name: "Falcons" });
  });
});

describe("teams", () => {
  it("creates a team and marks it stale so it reaches the board", async () => {
    const team = await createTeam(testAdmin, "العنقاء");
    const [outbox] = await getDb().select().from(standingsOutbox).where(eq(standingsOutbox.teamId, team.id));
    expect(outbox).toBeDefined();
    expect((await listTeams()).find((row) => row.id === team.id)).toMatchObject({ name: "العنقاء", members: 0 });
  });

  it("refuses a duplicate name whatever its case, on create and rename", async () => {
    await createTeam(testAdmin, "Dragons");
    await expect(createTeam(testAdmin, "dRAGONS")).rejects.toThrow(m.teamNameTaken);
    const other = await createTeam(testAdmin, "Wyverns");
    await expect(renameTeam(testAdmin, other.id, "DRAGONS")).rejects.toBeInstanceOf(DashboardError);
    await renameTeam(testAdmin, other.id, "Wyverns II");
    const [row] = await getDb().select().from(teams).where(eq(teams.id, other.id));
    expect(row.name).toBe("Wyverns II");
  });

  it("refuses to delete a team with submissions or members, deletes an empty one", async () => {
    const withSubmission = await makeTeam();
    const challenge = await makeChallenge();
    await makeSubmission(withSubmission.id, challenge.id, null);
    await expect(deleteTeam(testAdmin, withSubmission.id)).rejects.toThrow(m.teamHasSubmissions);

    const withMembers = await makeTeam();
    await makeUser("participant", withMembers.id);
    await makeUser("participant", withMembers.id);
    await expect(deleteTeam(testAdmin, withMembers.id)).rejects.toThrow(m.teamHasMembers(2));

    const empty = await makeTeam();
    await deleteTeam(testAdmin, empty.id);
    expect(await getDb().select().from(teams).where(eq(teams.id, empty.id))).toHaveLength(0);
    await expect(deleteTeam(testAdmin, empty.id)).rejects.toThrow(m.teamNotFound);
  });
});

describe("user form validation", () => {
  it("gives clear messages", () => {
    expect(issues(UserFormSchema.safeParse({}))).toMatchObject({ name: m.nameRequired, role: m.roleRequired });
    // A new user needs a password, or an address to mail a link to choose one.
    expect(issues(UserFormSchema.safeParse({ name: "a", role: "participant" }))).toEqual({ password: messages.mail.passwordOrAddress, teamId: m.teamRequired });
    expect(issues(UserFormSchema.safeParse({ name: "a", role: "admin", password: "short" }))).toEqual({ password: m.passwordTooShort });
    // Editing: a blank password keeps the current one.
    expect(UserFormSchema.safeParse({ id: "4", name: "a", role: "judge" }).success).toBe(true);
  });
});

describe("users", () => {
  it("creates a participant, keeps the password on a blank edit, moves teams and marks both stale", async () => {
    const [a, b] = [await makeTeam(), await makeTeam()];
    const admin = await makeUser("admin");
    const user = await createUser(testAdmin, { name: `amina-${Date.now()}`, password: "secret-pass-1", role: "participant", teamId: a.id });
    await getDb().delete(standingsOutbox);

    await updateUser(actorFor(admin.id, admin.name, "admin"), { id: user.id, name: "Amina", role: "participant", teamId: b.id });
    const [row] = await getDb().select().from(users).where(eq(users.id, user.id));
    expect(row.teamId).toBe(b.id);
    expect(await verifyPassword(row.passwordHash, "secret-pass-1")).toBe(true);
    const stale = (await getDb().select().from(standingsOutbox)).map((r) => r.teamId).sort();
    expect(stale).toEqual([a.id, b.id].sort());

    await updateUser(actorFor(admin.id, admin.name, "admin"), { id: user.id, name: "Amina", role: "participant", teamId: b.id, password: "another-pass" });
    const [after] = await getDb().select().from(users).where(eq(users.id, user.id));
    expect(await verifyPassword(after.passwordHash, "another-pass")).toBe(true);
  });

  it("refuses duplicate names and gives admins and judges no team", async () => {
    const team = await makeTeam();
    await createUser(testAdmin, { name: "Judge Judy", password: "password-1", role: "judge", teamId: team.id });
    const [judge] = await getDb().select().from(users).where(eq(users.name, "Judge Judy"));
    expect(judge.teamId).toBeNull();
    await expect(createUser(testAdmin, { name: "judge judy", password: "password-1", role: "admin" })).rejects.toThrow(m.userNameTaken);
  });

  it("an admin cannot delete or demote themselves", async () => {
    const admin = await makeUser("admin");
    await expect(deleteUser(actorFor(admin.id, admin.name, "admin"), admin.id)).rejects.toThrow(m.cannotDeleteSelf);
    await expect(updateUser(actorFor(admin.id, admin.name, "admin"), { id: admin.id, name: admin.name, role: "judge" })).rejects.toThrow(m.cannotDemoteSelf);
  });

  it("deleting a user keeps the team's submissions, credited to nobody", async () => {
    const admin = await makeUser("admin");
    const team = await makeTeam();
    const user = await makeUser("participant", team.id);
    const challenge = await makeChallenge();
    const submission = await makeSubmission(team.id, challenge.id, user.id);
    await deleteUser(actorFor(admin.id, admin.name, "admin"), user.id);
    const [row] = await getDb().select().from(submissions).where(eq(submissions.id, submission.id));
    expect(row).toMatchObject({ teamId: team.id, userId: null });
  });
});
