/**
 * Integrity signals through the worker (docs/domain.md "Integrity signals"): a real BullMQ worker runs the
 * `integrity` queue that saving a submission feeds. A planted copy (identifiers renamed, lines moved, comments
 * added) yields a signal naming both teams and versions; an independent answer and one that only sends the
 * starter code back yield none; identical files are found whatever their names; a judge under blind judging reads
 * the other team as a label; an admin's confirmation gives a penalty award whose reason names nobody, once; a
 * browser signed in as two teams' members, and a per-team flag sent by another team, show as signals too.
 */
import { Readable } from "node:stream";
import { Worker } from "bullmq";
import { and, eq, or } from "drizzle-orm";
import { anyOf } from "../../db/any-of.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, awards, eventSettings, flagSharing, gates, integritySignals, signIns, submissionPrints, users } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { queues } from "../../app/infrastructure/queues.ts";
import { bullPrefix } from "../../app/infrastructure/queue.server.ts";
import { createRedis } from "../../app/infrastructure/redis.server.ts";
import { newObjectKey, uploadStream } from "../../app/infrastructure/s3.server.ts";
import { surfaceFlagSharing } from "../../app/modules/integrity/compare.server.ts";
import { confirmSignal, dismissSignal, listSignals, saveStarter, saveThresholds, signalsCsv, signalsForSubmission } from "../../app/modules/integrity/signals.server.ts";
import { checkSignIn, newDeviceId, recordSignIn } from "../../app/modules/integrity/sign-ins.server.ts";
import { saveSubmission, type StoredFile } from "../../app/modules/submissions/submit.server.ts";
import { processIntegrity } from "../../workers/processors/integrity.ts";
import { messages } from "../../app/modules/messages.ts";
import { actorFor, ensureEventSettings, makeChallenge, makePlayer, makeUser } from "../support/fixtures.ts";

const HOUR = 3_600_000;
let worker: Worker;

beforeAll(async () => {
  await ensureEventSettings();
  await getDb()
    .insert(gates)
    .values([1, 2, 3, 4, 5].map((number) => ({ number, title: `Gate ${number}`, description: "d", opensAt: new Date(Date.now() - HOUR) })))
    .onConflictDoNothing();
  worker = new Worker(queues.integrity.name, processIntegrity, { connection: createRedis("worker"), prefix: bullPrefix(), concurrency: 2 });
});

afterAll(async () => {
  await worker.close();
});

const original = [
  "def parse_scores(lines):",
  "    scores = {}",
  "    for line in lines:",
  "        name, value = line.split(',')",
  "        scores[name.strip()] = int(value)",
  "    return scores",
  "",
  "def best_player(scores):",
  "    ranked = sorted(scores.items(), key=lambda pair: pair[1], reverse=True)",
  "    if not ranked:",
  "        return None",
  "    return ranked[0][0]",
  "",
  "print(best_player(parse_scores(open('scores.csv').read().splitlines())))",
].join("\n");

/** The copy a team makes: names changed, the functions swapped, a comment of its own. */
const planted = [
  "# our solution",
  "def top(table):",
  "    ordered = sorted(table.items(), key=lambda kv: kv[1], reverse=True)",
  "    if not ordered:",
  "        return None",
  "    return ordered[0][0]",
  "",
  "def read_table(rows):",
  "    table = {}",
  "    for row in rows:",
  "        who, pts = row.split(',')",
  "        table[who.strip()] = int(pts)",
  "    return table",
  "",
  "print(top(read_table(open('scores.csv').read().splitlines())))",
].join("\n");

/** Another team's own work on the same task. */
const independent = [
  "import csv",
  "",
  "with open('scores.csv') as handle:",
  "    reader = csv.reader(handle)",
  "    best = max(reader, key=lambda row: float(row[1]), default=None)",
  "",
  "print(best[0] if best else 'nobody')",
  "total = 0",
  "while total < 3:",
  "    total += 1",
  "    print('checked', total)",
].join("\n");

async function send(player: Awaited<ReturnType<typeof makePlayer>>, challengeId: number, text: string | null, file: StoredFile | null = null) {
  return (await saveSubmission({ actor: player.actor, teamId: player.team.id, challengeId, text, file })).submissionId;
}

async function stored(body: string, name: string): Promise<StoredFile> {
  const key = newObjectKey("submissions");
  const { size } = await uploadStream({ key, body: Readable.from([Buffer.from(body)]), limitBytes: 1_000_000 });
  return { key, name, type: "application/octet-stream", size };
}

/** Waits until the worker has fingerprinted the submission's newest version (its print rows are there). */
async function printed(submissionId: number, sources = 1) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const rows = await getDb().select().from(submissionPrints).where(eq(submissionPrints.submissionId, submissionId));
    if (rows.length >= sources) return rows;
    if (Date.now() > deadline) throw new Error(`submission ${submissionId} not fingerprinted`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function signalsOfTeam(teamId: number) {
  return getDb().select().from(integritySignals).where(eq(integritySignals.teamId, teamId));
}

describe("answers compared by the worker", () => {
  it("finds a planted copy, names both teams, and leaves an independent answer alone", async () => {
    const challenge = await makeChallenge();
    const [a, b, c] = [await makePlayer(), await makePlayer(), await makePlayer()];
    const first = await send(a, challenge.id, original);
    await printed(first);
    const copy = await send(b, challenge.id, planted);
    await printed(copy);
    const own = await send(c, challenge.id, independent);
    await printed(own);

    const [signal] = await signalsOfTeam(b.team.id);
    expect(signal).toMatchObject({ kind: "similar", challengeId: challenge.id, otherTeamId: a.team.id, status: "open" });
    expect(signal.similarity).toBeGreaterThanOrEqual(70);
    expect(await signalsOfTeam(c.team.id)).toEqual([]);

    // The judge workspace's view of team A's submission: the copy beside it, the shared lines marked.
    const [seen] = await signalsForSubmission(first, { role: "admin" });
    expect(seen.otherTeam).toBe(b.team.name);
    expect(seen.mine!.filter((line) => line.matched).length).toBeGreaterThanOrEqual(8);
    expect(seen.theirs!.find((line) => line.text === "# our solution")!.matched).toBe(false);
  });

  it("hides the other team from judges while judging is blind (admins still read it)", async () => {
    const challenge = await makeChallenge();
    const [a, b] = [await makePlayer(), await makePlayer()];
    await printed(await send(a, challenge.id, original));
    const copy = await send(b, challenge.id, planted);
    await printed(copy);
    await getDb().update(eventSettings).set({ blindJudging: true }).where(eq(eventSettings.id, 1));
    try {
      const [judgeView] = await signalsForSubmission(copy, { role: "judge" });
      expect(judgeView.otherTeam).not.toContain(a.team.name);
      expect(judgeView.otherTeam).toMatch(/^Team [A-Z0-9]{6}$/);
      const [adminView] = await signalsForSubmission(copy, { role: "admin" });
      expect(adminView.otherTeam).toBe(a.team.name);
    } finally {
      await getDb().update(eventSettings).set({ blindJudging: false }).where(eq(eventSettings.id, 1));
    }
  });

  it("leaves out the starter code every team gets, and answers too short to mean anything", async () => {
    const challenge = await makeChallenge();
    await saveStarter(actorFor((await makeUser("admin")).id, "admin", "admin"), { challengeId: challenge.id, starter: original });
    const [a, b, c, d] = [await makePlayer(), await makePlayer(), await makePlayer(), await makePlayer()];
    await printed(await send(a, challenge.id, original + "\nanswer = 42"));
    await printed(await send(b, challenge.id, original + "\nanswer = 42"));
    await printed(await send(c, challenge.id, "42"));
    await printed(await send(d, challenge.id, "42"));
    for (const team of [b, d]) expect(await signalsOfTeam(team.team.id)).toEqual([]);
  });

  it("finds identical files whatever their names", async () => {
    const challenge = await makeChallenge();
    const [a, b] = [await makePlayer(), await makePlayer()];
    const bytes = "\u0089PNG-not-really " + "x".repeat(200);
    await printed(await send(a, challenge.id, null, await stored(bytes, "ours.bin")));
    const second = await send(b, challenge.id, null, await stored(bytes, "final-version.dat"));
    await printed(second);
    const [signal] = await signalsOfTeam(b.team.id);
    expect(signal).toMatchObject({ kind: "identical-file", similarity: 100, otherTeamId: a.team.id });
  });
});

describe("decisions", () => {
  it("confirms a signal into a penalty whose public reason names nobody, once, audited", async () => {
    const challenge = await makeChallenge();
    const [a, b] = [await makePlayer(), await makePlayer()];
    await printed(await send(a, challenge.id, original));
    await printed(await send(b, challenge.id, planted));
    const [signal] = await signalsOfTeam(b.team.id);
    const admin = await makeUser("admin");
    const actor = actorFor(admin.id, admin.name, "admin");
    const award = await confirmSignal(actor, { id: signal.id, teamId: b.team.id, points: "25", publicReason: "Penalty: breach of the rules" });
    const [given] = await getDb().select().from(awards).where(eq(awards.id, award.id));
    expect(given).toMatchObject({ teamId: b.team.id, pointsCenti: -2500, reason: "Penalty: breach of the rules" });
    expect(given.reason).not.toContain(a.team.name);
    await expect(confirmSignal(actor, { id: signal.id, teamId: b.team.id, points: "25", publicReason: "again" })).rejects.toMatchObject({ status: 409 });
    await expect(dismissSignal(actor, { id: signal.id, reason: "late" })).rejects.toMatchObject({ status: 409 });
    const records = await getDb().select().from(auditLog).where(and(eq(auditLog.kind, "signal.confirmed"), eq(auditLog.subjectId, signal.id)));
    expect(records).toHaveLength(1);
    // A dismissal and the thresholds are recorded too.
    const [other] = await getDb()
      .insert(integritySignals)
      .values({ kind: "similar", challengeId: challenge.id, teamId: b.team.id, otherTeamId: a.team.id, similarity: 90, sourceKey: `dismissal of ${signal.id}` })
      .returning({ id: integritySignals.id });
    await dismissSignal(actor, { id: other.id, reason: "Both teams used the course's sample" });
    expect(await getDb().select().from(auditLog).where(and(eq(auditLog.kind, "signal.dismissed"), eq(auditLog.subjectId, other.id)))).toHaveLength(1);
    await saveThresholds(actor, { similarityPercent: 50, devicesPerAccount: 4 });
    expect(await getDb().select().from(auditLog).where(and(eq(auditLog.kind, "signal.settings"), eq(auditLog.actorId, admin.id)))).toHaveLength(1);
    expect((await listSignals({ status: "confirmed", team: b.team.id })).rows.map((row) => row.id)).toEqual([signal.id]);
    expect(await signalsCsv()).toContain(`${signal.id},similar,confirmed`);
  });

  it("refuses a penalty for a team outside the signal, or one whose reason names the other team", async () => {
    const challenge = await makeChallenge();
    const [a, b, outsider] = [await makePlayer(), await makePlayer(), await makePlayer()];
    await printed(await send(a, challenge.id, original));
    await printed(await send(b, challenge.id, planted));
    const [signal] = await signalsOfTeam(b.team.id);
    const admin = await makeUser("admin");
    await expect(confirmSignal(actorFor(admin.id, admin.name, "admin"), { id: signal.id, teamId: outsider.team.id, points: "10", publicReason: "x" })).rejects.toMatchObject({ status: 400 });
    expect(await getDb().select().from(awards).where(eq(awards.teamId, outsider.team.id))).toEqual([]);
    // Nor a public reason naming the other team.
    await expect(
      confirmSignal(actorFor(admin.id, admin.name, "admin"), { id: signal.id, teamId: b.team.id, points: "10", publicReason: `Copied from ${a.team.name.toUpperCase()}` }),
    ).rejects.toMatchObject({ status: 400, field: "publicReason" });
    // Nor one of its members, nor the team in another spelling of the same name (full width, look-alikes: docs/domain.md "Names").
    const fullWidth = (text: string) => [...text].map((char) => (char >= "!" && char <= "~" ? String.fromCharCode(char.charCodeAt(0) + 0xfee0) : char)).join("");
    for (const publicReason of [`Worked with ${a.user.name}`, `Copied from ${fullWidth(a.team.name)}`, `Copied from ${a.team.name.replace(/o/g, "0").replace(/e/g, "е")}`]) {
      await expect(confirmSignal(actorFor(admin.id, admin.name, "admin"), { id: signal.id, teamId: b.team.id, points: "10", publicReason }), publicReason).rejects.toMatchObject({
        status: 400,
        field: "publicReason",
        message: messages.integrity.reasonNamesTeam,
      });
    }
    expect(await getDb().select().from(awards).where(eq(awards.teamId, b.team.id))).toEqual([]);
    // Words that only contain a name are no mention: the default reason goes through.
    await expect(confirmSignal(actorFor(admin.id, admin.name, "admin"), { id: signal.id, teamId: b.team.id, points: "10", publicReason: "Penalty: breach of the competition rules" })).resolves.toMatchObject({ teamId: b.team.id });
  });
});

describe("accounts and flags", () => {
  it("signals one browser signed in as members of two teams", async () => {
    const [a, b] = [await makePlayer(), await makePlayer()];
    const device = newDeviceId();
    await recordSignIn(a.user.id, device, "203.0.113.5");
    await recordSignIn(b.user.id, device, "203.0.113.5");
    // Either sign-in's check may write it first (the jobs run side by side): one signal for the pair.
    const ofPair = async () => [...(await signalsOfTeam(a.team.id)), ...(await signalsOfTeam(b.team.id))];
    const deadline = Date.now() + 15_000;
    let rows = await ofPair();
    while (rows.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      rows = await ofPair();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    rows = await ofPair();
    expect(rows).toHaveLength(1);
    expect(rows[0].kind).toBe("device-shared");
    expect([rows[0].teamId, rows[0].otherTeamId].sort()).toEqual([a.team.id, b.team.id].sort());
    // The same address from two browsers (a venue's network) is no signal.
    const [c, d] = [await makePlayer(), await makePlayer()];
    await recordSignIn(c.user.id, newDeviceId(), "203.0.113.5");
    await recordSignIn(d.user.id, newDeviceId(), "203.0.113.5");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([...(await signalsOfTeam(c.team.id)), ...(await signalsOfTeam(d.team.id))]).toEqual([]);
  });

  it("does not signal one person's browser seen in their own successive teams (an admin moved them); another person on it still is", async () => {
    const [a, b, c] = [await makePlayer(), await makePlayer(), await makePlayer()];
    const device = newDeviceId();
    const checkAll = async () => {
      const rows = await getDb().select({ id: signIns.id }).from(signIns).where(anyOf(signIns.userId, [a.user.id, c.user.id]));
      for (const row of rows) await checkSignIn(row.id);
    };
    const teamIds = [a.team.id, b.team.id, c.team.id];
    const devicePairs = () =>
      getDb()
        .select()
        .from(integritySignals)
        .where(and(eq(integritySignals.kind, "device-shared"), or(anyOf(integritySignals.teamId, teamIds), anyOf(integritySignals.otherTeamId, teamIds))));
    await recordSignIn(a.user.id, device, "203.0.113.9");
    await getDb().update(users).set({ teamId: b.team.id }).where(eq(users.id, a.user.id));
    await recordSignIn(a.user.id, device, "203.0.113.9");
    await checkAll();
    expect(await devicePairs()).toEqual([]);
    // Someone else signing in on that browser is the signal it was made for.
    await recordSignIn(c.user.id, device, "203.0.113.9");
    await checkAll();
    const pairs = await devicePairs();
    expect(pairs.length).toBeGreaterThan(0);
    for (const pair of pairs) expect([pair.teamId, pair.otherTeamId]).toContain(c.team.id);
  });

  it("surfaces a per-team flag sent by another team as a signal, once", async () => {
    const challenge = await makeChallenge();
    const [owner, sender] = [await makePlayer(), await makePlayer()];
    await getDb().insert(flagSharing).values({ challengeId: challenge.id, teamId: sender.team.id, ownerTeamId: owner.team.id, userId: sender.user.id });
    expect(await surfaceFlagSharing()).toBe(1);
    expect(await surfaceFlagSharing()).toBe(0);
    const [signal] = await signalsOfTeam(sender.team.id);
    expect(signal).toMatchObject({ kind: "flag-shared", otherTeamId: owner.team.id, challengeId: challenge.id });
  });
});
