/**
 * A small event for tests that walk every route: gates 1–2 open and 3–5 closed, two teams, one user per
 * role with a session cookie, an open and a closed challenge (each with a stored attachment) and a
 * submission of team A with a stored file.
 */
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { challenges, requests, submissions } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { newObjectKey, uploadStream } from "../../app/infrastructure/s3.server.ts";
import { storeVideoFile } from "../../app/modules/videos/files.server.ts";
import { ensureTwoOpenGates, makeChallenge, makeTeam, makeUser, sessionCookie } from "./fixtures.ts";

export const worldRoles = ["visitor", "participant", "outsider", "judge", "admin", "mentor"] as const;
export type WorldRole = (typeof worldRoles)[number];

export interface RouteWorld {
  /** "participant" belongs to team A (which owns the submission); "outsider" to team B. */
  cookies: Partial<Record<WorldRole, string>>;
  /** A new session of the role's user (for what ends the session it is sent with: logout). */
  freshCookie(role: WorldRole): Promise<string | undefined>;
  openChallenge: number;
  closedChallenge: number;
  submissionWithFile: number;
  /** A question of team A (the participant's team) about the open challenge. */
  threadOfA: number;
  /** The id of a stored home video (`/media/<id>`). */
  homeVideo: string;
}

async function stored(prefix: "attachments" | "submissions", body: string) {
  const key = newObjectKey(prefix);
  await uploadStream({ key, body: Readable.from([Buffer.from(body)]), limitBytes: 1000 });
  return key;
}

export async function createRouteWorld(): Promise<RouteWorld> {
  await ensureTwoOpenGates();
  const [teamA, teamB] = [await makeTeam(), await makeTeam()];
  const users = {
    participant: await makeUser("participant", teamA.id),
    outsider: await makeUser("participant", teamB.id),
    judge: await makeUser("judge"),
    admin: await makeUser("admin"),
    mentor: await makeUser("mentor"),
  };
  const cookies: RouteWorld["cookies"] = {};
  for (const [role, user] of Object.entries(users)) cookies[role as WorldRole] = await sessionCookie(user.id);

  const open = await makeChallenge({ wave: 1 });
  await getDb().update(challenges).set({ attachmentKey: await stored("attachments", "%PDF-1.1"), attachmentName: "brief.pdf" }).where(eq(challenges.id, open.id));
  const closed = await makeChallenge({ wave: 5 });
  await getDb().update(challenges).set({ attachmentKey: await stored("attachments", "%PDF-1.1"), attachmentName: "later.pdf" }).where(eq(challenges.id, closed.id));
  const [submission] = await getDb()
    .insert(submissions)
    .values({ teamId: teamA.id, challengeId: open.id, userId: users.participant.id, text: "ours", fileKey: await stored("submissions", "secret"), fileName: "ours.txt" })
    .returning();
  const [thread] = await getDb()
    .insert(requests)
    .values({ kind: "question", message: "Is an external API allowed?", userId: users.participant.id, teamId: teamA.id, challengeId: open.id })
    .returning({ id: requests.id });
  const freshCookie = async (role: WorldRole) => (role === "visitor" ? undefined : sessionCookie(users[role].id));
  const homeVideo = (await storeVideoFile(Buffer.from("\x1a\x45\xdf\xa3"), "video/webm")).split("/").pop()!;
  return { cookies, freshCookie, openChallenge: open.id, closedChallenge: closed.id, submissionWithFile: submission.id, threadOfA: thread.id, homeVideo };
}
