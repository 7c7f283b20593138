/**
 * First blood (docs/domain.md "First blood"): the first three solves of a flag challenge are marked, the first
 * announced live to everyone, held from participants while the board is frozen and sent when it is lifted.
 * A real web process's Socket.IO server and real sockets; the solves are made by this process, as a web
 * process's request makes them.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { challenges } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { firstSolvesFor } from "../../app/modules/flags/first-blood.server.ts";
import { sendFlag } from "../../app/modules/flags/guess.server.ts";
import { setScoreboardFrozen } from "../../app/modules/standings/freeze.server.ts";
import { recomputeTeamStanding } from "../../app/modules/standings/recompute.server.ts";
import { loader as scoreboardPage } from "../../app/routes/_app.scoreboard.tsx";
import { actorFor, ensureEventSettings, ensureTwoOpenGates, makeFlagChallenge, makeTeam, makeUser, sessionCookie, testAdmin } from "../support/fixtures.ts";
import { collect, connectSocket, nextEvent, startRealtimeServer, stopAll, type TestSocket } from "../support/processes.ts";
import { drained } from "../support/drained.ts";

const sockets: TestSocket[] = [];
let url: string;

beforeAll(async () => {
  await ensureEventSettings();
  await ensureTwoOpenGates();
  url = (await startRealtimeServer()).url;
});

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  stopAll();
  await setScoreboardFrozen(testAdmin, false);
});

const flagChallenge = (flag: string) => makeFlagChallenge(flag);

async function team() {
  const made = await makeTeam();
  const user = await makeUser("participant", made.id);
  return { ...made, actor: actorFor(user.id, user.name, "participant"), userId: user.id };
}

async function socketOf(role: "participant" | "admin") {
  const user = await makeUser(role, role === "participant" ? (await makeTeam()).id : null);
  const socket = await connectSocket(url, await sessionCookie(user.id));
  sockets.push(socket);
  return socket;
}

describe("first blood", () => {
  it("marks the first three solves in order and announces the first to everyone, once", async () => {
    const challenge = await flagChallenge("GK{blood}");
    const watcher = await socketOf("participant");
    const heard = collect(watcher, "first_blood");
    const [a, b, c, d] = await Promise.all([team(), team(), team(), team()]);
    const first = await sendFlag({ actor: a.actor, teamId: a.id, challengeId: challenge.id, answer: "GK{blood}" });
    expect(first).toMatchObject({ verdict: "correct", firstBlood: true });
    for (const next of [b, c, d]) expect(await sendFlag({ actor: next.actor, teamId: next.id, challengeId: challenge.id, answer: "GK{blood}" })).toMatchObject({ firstBlood: false });
    await drained(watcher);
    expect(heard.map(([event]) => event).filter((event) => event.challengeId === challenge.id)).toEqual([
      // The challenge's title in both languages (this one has no Arabic): each browser names it in its reader's.
      { challengeId: challenge.id, challenge: challenge.title, challengeAr: null, category: "CS", team: a.name, at: expect.any(String) },
    ]);
    const marks = (await firstSolvesFor([challenge.id], { role: "participant" })).get(challenge.id);
    expect(marks?.map((mark) => [mark.place, mark.teamId])).toEqual([
      [1, a.id],
      [2, b.id],
      [3, c.id],
    ]);
  });

  it("makes one first blood of two teams' right answers at the same instant", async () => {
    const challenge = await flagChallenge("GK{tie}");
    const [a, b] = await Promise.all([team(), team()]);
    const verdicts = await Promise.all([a, b].map((one) => sendFlag({ actor: one.actor, teamId: one.id, challengeId: challenge.id, answer: "GK{tie}" })));
    expect(verdicts.filter((verdict) => verdict.verdict === "correct" && verdict.firstBlood)).toHaveLength(1);
    const marks = (await firstSolvesFor([challenge.id], { role: "admin" })).get(challenge.id)!;
    const winner = verdicts.findIndex((verdict) => verdict.verdict === "correct" && verdict.firstBlood);
    expect(marks[0].teamId).toBe([a, b][winner].id);
  });

  it("holds a first blood from participants while the board is frozen, and sends it when the freeze is lifted", async () => {
    const participant = await socketOf("participant");
    const admin = await socketOf("admin");
    const toParticipant = collect(participant, "first_blood");
    await setScoreboardFrozen(testAdmin, true);
    try {
      const challenge = await flagChallenge("GK{frozen}");
      const solver = await team();
      const adminHeard = nextEvent(admin, "first_blood", (event) => event.challengeId === challenge.id);
      expect(await sendFlag({ actor: solver.actor, teamId: solver.id, challengeId: challenge.id, answer: "GK{frozen}" })).toMatchObject({ firstBlood: true });
      // Admins see the live board: at once.
      expect((await adminHeard)[0].team).toBe(solver.name);
      await drained(participant);
      expect(toParticipant.some(([event]) => event.challengeId === challenge.id)).toBe(false);
      // Marked for admins, not yet for participants.
      expect((await firstSolvesFor([challenge.id], { role: "admin" })).get(challenge.id)).toHaveLength(1);
      expect((await firstSolvesFor([challenge.id], { role: "participant" })).get(challenge.id)).toBeUndefined();

      const released = nextEvent(participant, "first_blood", (event) => event.challengeId === challenge.id);
      await setScoreboardFrozen(testAdmin, false);
      expect((await released)[0]).toMatchObject({ team: solver.name, challenge: challenge.title });
      expect((await firstSolvesFor([challenge.id], { role: "participant" })).get(challenge.id)).toHaveLength(1);
    } finally {
      await setScoreboardFrozen(testAdmin, false);
    }
  });

  it("marks each team's first-three solves in the scoreboard's row details, as of the freeze for participants, only of challenges they may see", async () => {
    const challenge = await flagChallenge("GK{rows}");
    const hidden = await flagChallenge("GK{hidden}");
    const [a, b, c] = await Promise.all([team(), team(), team()]);
    await sendFlag({ actor: a.actor, teamId: a.id, challengeId: challenge.id, answer: "GK{rows}" });
    await sendFlag({ actor: b.actor, teamId: b.id, challengeId: challenge.id, answer: "GK{rows}" });
    // A challenge taken back (inactive) keeps its solves; participants see neither it nor its marks.
    await sendFlag({ actor: c.actor, teamId: c.id, challengeId: hidden.id, answer: "GK{hidden}" });
    await getDb().update(challenges).set({ status: "inactive" }).where(eq(challenges.id, hidden.id));
    const participant = await makeUser("participant", a.id);
    const admin = await makeUser("admin");
    const marksOf = async (userId: number) => {
      const data = (await scoreboardPage({ request: new Request("http://localhost/scoreboard", { headers: { Cookie: await sessionCookie(userId) } }), params: {}, context: {} })) as {
        marks: Array<{ teamId: number; place: number; challengeId: number; challenge: string }>;
      };
      return data.marks.filter((mark) => mark.challengeId === challenge.id || mark.challengeId === hidden.id).map((mark) => [mark.challenge, mark.place, mark.teamId]);
    };
    await setScoreboardFrozen(testAdmin, true);
    try {
      await sendFlag({ actor: c.actor, teamId: c.id, challengeId: challenge.id, answer: "GK{rows}" });
      await recomputeTeamStanding(c.id);
      expect(await marksOf(participant.id)).toEqual([
        [challenge.title, 1, a.id],
        [challenge.title, 2, b.id],
      ]);
      expect(await marksOf(admin.id)).toEqual([
        [challenge.title, 1, a.id],
        [challenge.title, 2, b.id],
        [challenge.title, 3, c.id],
        [hidden.title, 1, c.id],
      ]);
      await setScoreboardFrozen(testAdmin, false);
      expect(await marksOf(participant.id)).toEqual([
        [challenge.title, 1, a.id],
        [challenge.title, 2, b.id],
        [challenge.title, 3, c.id],
      ]);
    } finally {
      await setScoreboardFrozen(testAdmin, false);
    }
  });
});
