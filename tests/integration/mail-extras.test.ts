/**
 * Mail's smaller flows (docs/domain.md "Mail"): an admin mails a new set-password link through the API as the
 * Users page does; the audit trail records a user's own password change and a password chosen with a mailed
 * link; spent links, old mails and dead invitations are pruned after their retention, and nothing younger.
 */
import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, mails, passwordLinks, teamInvites, users } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { changeOwnPassword } from "../../app/modules/auth/password-change.server.ts";
import { createPasswordLink, spendPasswordLink } from "../../app/modules/mail/password-links.server.ts";
import { LINK_RETENTION_DAYS, MAIL_RETENTION_DAYS, pruneMailRecords } from "../../app/modules/mail/retention.server.ts";
import * as linkRoute from "../../app/routes/api.v1.users.$id.password-link.tsx";
import { actorFor, ensureEventSettings, makeTeam, makeUser } from "../support/fixtures.ts";
import { makeCallers, send } from "../support/api.ts";

let callers: Awaited<ReturnType<typeof makeCallers>>;
let serial = 0;
beforeAll(async () => {
  await ensureEventSettings();
  callers = await makeCallers();
});

const DAY = 86_400_000;
const recordsOf = (kind: string, userId: number) => getDb().select().from(auditLog).where(eq(auditLog.kind, kind)).then((rows) => rows.filter((row) => row.userId === userId));

describe("POST /api/v1/users/{id}/password-link", () => {
  it("an admin mails a new link (202, the address), recorded; others are refused; no address is a 409", async () => {
    const user = await makeUser("participant");
    const address = `extras-${process.pid}-${++serial}@example.org`;
    await getDb().update(users).set({ email: address }).where(eq(users.id, user.id));
    const path = `/users/${user.id}/password-link`;
    const sent = await send(linkRoute, "POST", path, { token: callers.tokens.admin }, { id: String(user.id) });
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ to: address });
    expect(JSON.stringify(sent.body)).not.toMatch(/token|set-password/);
    const rows = await getDb().select().from(mails).where(eq(mails.userId, user.id));
    expect(rows.map((row) => [row.kind, row.toAddress])).toEqual([["set_password", address]]);
    expect(await recordsOf("mail.link-sent", user.id)).toHaveLength(1);
    for (const role of ["judge", "participant", "mentor"] as const) {
      expect((await send(linkRoute, "POST", path, { token: callers.tokens[role] }, { id: String(user.id) })).status).toBe(403);
    }
    const bare = await makeUser("participant");
    expect((await send(linkRoute, "POST", `/users/${bare.id}/password-link`, { token: callers.tokens.admin }, { id: String(bare.id) })).status).toBe(409);
    expect((await send(linkRoute, "POST", "/users/999999999/password-link", { token: callers.tokens.admin }, { id: "999999999" })).status).toBe(404);
  });
});

describe("the audit trail of one's own password", () => {
  it("records a change while signed in and a password chosen with a link, never the password", async () => {
    const user = await makeUser("participant");
    await changeOwnPassword({ ...actorFor(user.id, user.name, "participant"), sessionId: null }, "a-new-long-password");
    const [changed] = await recordsOf("user.password-changed", user.id);
    expect(changed.actorId).toBe(user.id);
    const token = await createPasswordLink(getDb(), { userId: user.id, purpose: "reset", mailId: null });
    await spendPasswordLink(token, "another-long-password", new Date(), "198.51.100.7");
    const [set] = await recordsOf("user.password-set", user.id);
    expect(set.via).toBe("link");
    expect(set.ip).toBe("198.51.100.7");
    expect(set.after).toEqual({ purpose: "reset" });
    expect(JSON.stringify([changed, set])).not.toContain("long-password");
  });
});

describe("retention", () => {
  it("prunes links used or expired over a week ago, mails older than 90 days (not a queued one), dead invitations; keeps the rest", async () => {
    const now = new Date();
    const old = new Date(now.getTime() - (LINK_RETENTION_DAYS + 1) * DAY);
    const recent = new Date(now.getTime() - DAY);
    const user = await makeUser("participant");
    const link = (selector: string, expiresAt: Date, usedAt: Date | null) => ({ userId: user.id, purpose: "reset" as const, selector: `${selector}-${process.pid}-${++serial}`, verifierHash: "00", expiresAt, usedAt });
    const inserted = await getDb()
      .insert(passwordLinks)
      .values([link("expired-old", old, null), link("used-old", new Date(now.getTime() + DAY), old), link("used-recent", new Date(now.getTime() + DAY), recent), link("live", new Date(now.getTime() + DAY), null)])
      .returning({ id: passwordLinks.id, selector: passwordLinks.selector });
    const ancient = new Date(now.getTime() - (MAIL_RETENTION_DAYS + 1) * DAY);
    const mail = (status: "sent" | "queued", createdAt: Date) => ({ userId: user.id, kind: "password_reset" as const, toAddress: "x@example.org", language: "en" as const, status, createdAt });
    const mailRows = await getDb()
      .insert(mails)
      .values([mail("sent", ancient), mail("queued", ancient), mail("sent", recent)])
      .returning({ id: mails.id });
    const team = await makeTeam();
    const invites = await getDb()
      .insert(teamInvites)
      .values([
        { teamId: team.id, selector: `P${++serial}`.slice(0, 4).padEnd(4, "0") + process.pid, verifierHash: "00", expiresAt: old },
        { teamId: team.id, selector: `Q${++serial}-${process.pid}`, verifierHash: "00", expiresAt: new Date(now.getTime() + DAY) },
      ])
      .returning({ id: teamInvites.id });
    await pruneMailRecords(now);
    const leftLinks = await getDb().select({ selector: passwordLinks.selector }).from(passwordLinks).where(inArray(passwordLinks.id, inserted.map((row) => row.id)));
    expect(leftLinks.map((row) => row.selector.split("-")[0] + "-" + row.selector.split("-")[1]).sort()).toEqual(["live-" + process.pid, "used-recent"].sort());
    const leftMails = await getDb().select({ id: mails.id }).from(mails).where(inArray(mails.id, mailRows.map((row) => row.id)));
    expect(leftMails.map((row) => row.id)).toEqual([mailRows[1].id, mailRows[2].id]);
    const leftInvites = await getDb().select({ id: teamInvites.id }).from(teamInvites).where(inArray(teamInvites.id, invites.map((row) => row.id)));
    expect(leftInvites.map((row) => row.id)).toEqual([invites[1].id]);
  });
});
