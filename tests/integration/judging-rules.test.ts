/**
 * How judging runs: N judges per submission with claims, judges assigned to gates and categories, rubric
 * challenges scored per criterion, and blind judging.
 */
import { Readable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { criterionScores, eventSettings, gates, judgeClaims, submissionScores, submissions } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { createChallenge, updateChallenge, type ChallengeInput } from "../../app/modules/challenges/challenges.server.ts";
import { ChallengeFormSchema } from "../../app/modules/challenges/schema.ts";
import { setAssignment } from "../../app/modules/judging/assignments.server.ts";
import { anonymousTeamName } from "../../app/modules/judging/blind.server.ts";
import { claimFirstAvailable, renewClaim } from "../../app/modules/judging/claims.server.ts";
import { judgeBacklog, judgeQueue } from "../../app/modules/judging/queue.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { scoreSubmission, ScoringError } from "../../app/modules/scoring/scoring.server.ts";
import { saveSubmission } from "../../app/modules/submissions/submit.server.ts";
import { loader as workspace } from "../../app/routes/dashboard.judge.tsx";
import { loader as submissionsTable } from "../../app/routes/dashboard.submissions.tsx";
import { loader as fileLoader } from "../../app/routes/submissions.$id.file.tsx";
import { loader as inlineLoader } from "../../app/routes/submissions.$id.inline.tsx";
import { newObjectKey, uploadStream } from "../../app/infrastructure/s3.server.ts";
import { ensureEventSettings, makeChallenge, makeTeam, makeUser, sessionCookie, actorFor, testAdmin } from "../support/fixtures.ts";


const HOUR = 3_600_000;

beforeAll(async () => {
  await ensureEventSettings();
  await getDb()
    .insert(gates)
    .values([1, 2, 3, 4, 5].map((number) => ({ number, title: `Gate ${number}`, description: "d", opensAt: new Date(Date.now() - HOUR) })));
});

// Each test sets the rules it needs; the file's database is its own.
beforeEach(async () => {
  await getDb().update(eventSettings).set({ judgesPerSubmission: null, blindJudging: false }).where(eq(eventSettings.id, 1));
  await getDb().delete(judgeClaims);
});

async function answers(count: number, challenge: { id: number }) {
  const ids: number[] = [];
  const teams = [];
  for (let index = 0; index < count; index += 1) {
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    ids.push((await saveSubmission({ actor: actorFor(member.id, undefined, "participant"), teamId: team.id, challengeId: challenge.id, text: `answer ${index}`, file: null })).submissionId);
    teams.push({ team, member });
  }
  return { ids, teams };
}

/** The workspace as a browser gets it: a submission handed out is pinned in the URL by a redirect, followed here. */
async function open(judgeId: number, search = "") {
  const cookie = await sessionCookie(judgeId);
  const load = (path: string) => workspace({ request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }), params: {}, context: {} });
  try {
    return await load(`/dashboard/judge${search}`);
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status === 302) return load(thrown.headers.get("Location")!);
    throw thrown;
  }
}

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

async function fileRoute(kind: "inline" | "file", cookie: string, submissionId: number) {
  const load = kind === "inline" ? inlineLoader : fileLoader;
  const request = new Request(`http://localhost/submissions/${submissionId}/${kind}`, { headers: { Cookie: cookie } });
  try {
    return (await load({ request, params: { id: String(submissionId) }, context: {} })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const revision = async (id: number) => (await getDb().select({ revisedAt: submissions.revisedAt }).from(submissions).where(eq(submissions.id, id)))[0].revisedAt;

describe("one judge per submission", () => {
  it("hands two judges two different submissions, and a scored one leaves both queues until the team changes it", async () => {
    await getDb().update(eventSettings).set({ judgesPerSubmission: 1 }).where(eq(eventSettings.id, 1));
    const [alice, bob] = [await makeUser("judge"), await makeUser("judge")];
    const challenge = await makeChallenge({ wave: 1, points: 10 });
    const { ids, teams } = await answers(2, challenge);
    const filter = `?challenge=${challenge.id}`;

    expect((await open(alice.id, filter)).current?.id).toBe(ids[0]);
    // Alice holds the first: Bob is handed the second, and no longer sees the first in his queue.
    const bobsPage = await open(bob.id, filter);
    expect(bobsPage.current?.id).toBe(ids[1]);
    expect(bobsPage.queue.map((item) => item.id)).toEqual([ids[1]]);
    expect((await judgeBacklog(bob.id)).total).toBe(1);

    await scoreSubmission({ submissionId: ids[0], judge: actorFor(alice.id), score: "7", seenRevision: await revision(ids[0]) });
    await getDb().delete(judgeClaims).where(eq(judgeClaims.judgeId, alice.id));
    expect((await judgeQueue(bob.id, { challengeId: challenge.id })).map((item) => item.id)).toEqual([ids[1]]);
    // Alice's next: the second is Bob's, so nothing for her.
    expect((await open(alice.id, `${filter}&after=${ids[0]}`)).current).toBeNull();

    // The team changes its answer: it needs a judge again (anyone), and Alice sees it changed since her score.
    await saveSubmission({ actor: actorFor(teams[0].member.id, undefined, "participant"), teamId: teams[0].team.id, challengeId: challenge.id, text: "improved", file: null });
    expect((await judgeQueue(alice.id, { challengeId: challenge.id })).map((item) => [item.id, item.changedSinceScore])).toEqual([[ids[0], true]]);
  });

  it("serves two judges asking at the same instant one after the other: only one is handed the last submission", async () => {
    await getDb().update(eventSettings).set({ judgesPerSubmission: 1 }).where(eq(eventSettings.id, 1));
    const challenge = await makeChallenge({ wave: 1 });
    for (let round = 0; round < 5; round += 1) {
      const [one, two] = [await makeUser("judge"), await makeUser("judge")];
      const { ids } = await answers(1, challenge);
      const handed = await Promise.all([claimFirstAvailable(one.id, ids), claimFirstAvailable(two.id, ids)]);
      expect(handed.filter((id) => id === ids[0])).toHaveLength(1);
      expect(handed).toContain(null);
    }
  });

  it("lets a lapsed claim go to another judge, and renews only the holder's", async () => {
    await getDb().update(eventSettings).set({ judgesPerSubmission: 1 }).where(eq(eventSettings.id, 1));
    const [holder, other] = [await makeUser("judge"), await makeUser("judge")];
    const challenge = await makeChallenge({ wave: 1 });
    const { ids } = await answers(1, challenge);
    expect(await claimFirstAvailable(holder.id, ids)).toBe(ids[0]);
    expect(await claimFirstAvailable(other.id, ids)).toBeNull();
    expect(await renewClaim(holder.id, ids[0])).toBe(true);
    expect(await renewClaim(other.id, ids[0])).toBe(false);
    await getDb().update(judgeClaims).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(judgeClaims.judgeId, holder.id));
    expect(await claimFirstAvailable(other.id, ids)).toBe(ids[0]);
  });
});

describe("claims and scores counted per judge", () => {
  it("a page that re-reads itself does not extend the claim; only the judge's activity does", async () => {
    await getDb().update(eventSettings).set({ judgesPerSubmission: 1 }).where(eq(eventSettings.id, 1));
    const judge = await makeUser("judge");
    const challenge = await makeChallenge({ wave: 1 });
    const { ids } = await answers(1, challenge);
    const handed = await open(judge.id, `?challenge=${challenge.id}`);
    expect(handed.current?.id).toBe(ids[0]);
    const expiry = async () => (await getDb().select({ at: judgeClaims.expiresAt }).from(judgeClaims).where(eq(judgeClaims.judgeId, judge.id)))[0].at;
    const first = await expiry();
    await getDb().update(judgeClaims).set({ expiresAt: sql`expires_at - interval '1 minute'` }).where(eq(judgeClaims.judgeId, judge.id));
    const lowered = await expiry();
    await open(judge.id, `?challenge=${challenge.id}&s=${ids[0]}`);
    expect(await expiry()).toEqual(lowered);
    expect(await renewClaim(judge.id, ids[0])).toBe(true);
    expect((await expiry()).getTime()).toBeGreaterThanOrEqual(first.getTime());
  });

  it("sends a changed submission back to the judge who scored it, and counts a judge who scored and holds it once", async () => {
    await getDb().update(eventSettings).set({ judgesPerSubmission: 2 }).where(eq(eventSettings.id, 1));
    const [alice, bob, carol] = [await makeUser("judge"), await makeUser("judge"), await makeUser("judge")];
    const challenge = await makeChallenge({ wave: 1, points: 10 });
    const { ids, teams } = await answers(1, challenge);
    await scoreSubmission({ submissionId: ids[0], judge: actorFor(alice.id), score: "2" });
    // Alice opens it again from her history: she counts once, so Bob and Carol still see it (it needs two).
    await open(alice.id, `?s=${ids[0]}`);
    expect((await judgeQueue(bob.id, { challengeId: challenge.id })).map((item) => item.id)).toEqual(ids);
    await scoreSubmission({ submissionId: ids[0], judge: actorFor(bob.id), score: "4" });
    expect(await judgeQueue(carol.id, { challengeId: challenge.id })).toEqual([]);
    // The team changes it: both earlier scorers get it back (their scores still count until they score again).
    await saveSubmission({ actor: actorFor(teams[0].member.id, undefined, "participant"), teamId: teams[0].team.id, challengeId: challenge.id, text: "v2", file: null });
    await claimFirstAvailable(carol.id, ids);
    await scoreSubmission({ submissionId: ids[0], judge: actorFor(carol.id), score: "10" });
    expect((await judgeQueue(alice.id, { challengeId: challenge.id })).map((item) => [item.id, item.changedSinceScore])).toEqual([[ids[0], true]]);
    expect((await judgeQueue(bob.id, { challengeId: challenge.id })).map((item) => item.id)).toEqual(ids);
  });
});

describe("judges assigned to gates and categories", () => {
  it("hands them only those submissions; a judge without an assignment sees everything", async () => {
    const [designer, gateTwoAi, anyone] = [await makeUser("judge"), await makeUser("judge"), await makeUser("judge")];
    const gd = await makeChallenge({ wave: 1, category: "GD" });
    const ai1 = await makeChallenge({ wave: 1, category: "AI" });
    const ai2 = await makeChallenge({ wave: 2, category: "AI" });
    const [{ ids: gdIds }, { ids: ai1Ids }, { ids: ai2Ids }] = [await answers(1, gd), await answers(1, ai1), await answers(1, ai2)];
    await setAssignment(designer.id, { waves: [], categories: ["GD"] });
    await setAssignment(gateTwoAi.id, { waves: [2], categories: ["AI"] });

    const queueOf = async (judgeId: number) => (await judgeQueue(judgeId)).map((item) => item.id).filter((id) => [...gdIds, ...ai1Ids, ...ai2Ids].includes(id));
    expect(await queueOf(designer.id)).toEqual(gdIds);
    expect(await queueOf(gateTwoAi.id)).toEqual(ai2Ids);
    expect(await queueOf(anyone.id)).toEqual([...gdIds, ...ai1Ids, ...ai2Ids]);
    expect((await judgeBacklog(designer.id)).byCategory).toMatchObject({ AI: 0, CS: 0, PS: 0 });

    await setAssignment(designer.id, { waves: [], categories: [] });
    expect(await queueOf(designer.id)).toEqual([...gdIds, ...ai1Ids, ...ai2Ids]);
    const participant = await makeUser("participant");
    await expect(setAssignment(participant.id, { waves: [1], categories: [] })).rejects.toThrow(messages.judging.notAJudge);
  });
});

describe("a rubric challenge", () => {
  const base = { description: "d", points: 150, category: "GD" as const, wave: 1 };

  it("is scored per criterion: the judge's score is the weighted share of the points", async () => {
    const form = ChallengeFormSchema.parse({ ...base, points: "150", title: `Banner ${Date.now()}`, rubric: "Clarity | 2 | 10\nOriginality | 1 | 10\nCraft | 1 | 10" });
    const { id } = await createChallenge(testAdmin, form as ChallengeInput, null);
    const [judge, second] = [await makeUser("judge"), await makeUser("judge")];
    const { ids } = await answers(1, { id });
    const page = await open(judge.id, `?s=${ids[0]}`);
    const [clarity, originality, craft] = page.current!.rubric;
    expect(page.current!.rubric.map((criterion) => [criterion.name, criterion.weight, criterion.maxPoints])).toEqual([
      ["Clarity", 2, 10],
      ["Originality", 1, 10],
      ["Craft", 1, 10],
    ]);

    // A single score is refused; so is a criterion out of its range, on that criterion.
    await expect(scoreSubmission({ submissionId: ids[0], judge: actorFor(judge.id), score: "100" })).rejects.toMatchObject({ message: messages.scoring.rubricRequired });
    const outOfRange = await scoreSubmission({ submissionId: ids[0], judge: actorFor(judge.id), criteria: { [clarity.id]: "11", [originality.id]: "5", [craft.id]: "5" } }).catch((error: unknown) => error);
    expect(outOfRange).toBeInstanceOf(ScoringError);
    expect(outOfRange).toMatchObject({ field: `criteria.${clarity.id}`, message: `Clarity: ${messages.scoring.range(10)}` });

    // 150 × (2 × 8/10 + 5/10 + 10/10) ÷ 4 = 116.25
    await scoreSubmission({ submissionId: ids[0], judge: actorFor(judge.id), criteria: { [clarity.id]: "8", [originality.id]: "5", [craft.id]: "10" } });
    await scoreSubmission({ submissionId: ids[0], judge: actorFor(second.id), criteria: { [clarity.id]: "10", [originality.id]: "10", [craft.id]: "10" } });
    const [row] = await getDb().select({ scoreCenti: submissions.scoreCenti }).from(submissions).where(eq(submissions.id, ids[0]));
    // The mean of the two judges' rubric scores: (116.25 + 150) ÷ 2 = 133.125 → 133.13
    expect(row.scoreCenti).toBe(13313);
    const mine = (await open(judge.id, `?s=${ids[0]}`)).current!.mine!;
    expect(mine.scoreCenti).toBe(11625);
    expect(mine.criteria).toEqual({ [clarity.id]: 800, [originality.id]: 500, [craft.id]: 1000 });

    // Scoring again replaces the criterion scores.
    await scoreSubmission({ submissionId: ids[0], judge: actorFor(judge.id), criteria: { [clarity.id]: "0", [originality.id]: "0", [craft.id]: "0" } });
    const stored = await getDb()
      .select({ scoreCenti: criterionScores.scoreCenti })
      .from(criterionScores)
      .innerJoin(submissionScores, eq(submissionScores.id, criterionScores.submissionScoreId))
      .where(eq(submissionScores.judgeId, judge.id));
    expect(stored.map((score) => score.scoreCenti)).toEqual([0, 0, 0]);

    // Emptying the rubric gives the challenge back its single score box.
    await updateChallenge(testAdmin, id, ChallengeFormSchema.parse({ ...base, points: "150", title: form.title, rubric: "" }) as ChallengeInput, null);
    expect((await open(judge.id, `?s=${ids[0]}`)).current!.rubric).toEqual([]);
  });

  it("is read as it stands once the score holds the challenge: a rubric given while the judge waited refuses a single score", async () => {
    const form = ChallengeFormSchema.parse({ ...base, points: "150", title: `Poster ${Date.now()}`, rubric: "" });
    const { id } = await createChallenge(testAdmin, form as ChallengeInput, null);
    const judge = await makeUser("judge");
    const { ids } = await answers(1, { id });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let score: Promise<unknown> | undefined;
    // An edit in progress: it holds the challenge (as updateChallenge does) and gives it a rubric.
    await getDb().transaction(async (tx) => {
      await tx.execute(sql`select 1 from challenges where id = ${id} for update`);
      await tx.execute(sql`insert into challenge_criteria (challenge_id, position, name, weight, max_points) values (${id}, 1, 'Clarity', 1, 10)`);
      score = scoreSubmission({ submissionId: ids[0], judge: actorFor(judge.id), score: "100" }).catch((error: unknown) => error);
      // The score waits for the challenge's lock; then the edit commits.
      for (let waiting = false; !waiting; await new Promise((resolve) => setTimeout(resolve, 20))) {
        const [row] = await getDb().execute<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
        waiting = Number(row.n) > 0;
      }
      release();
      await released;
    });
    // Read before the lock was held, the rubric would still be empty and the single score accepted.
    expect(await score).toMatchObject({ message: messages.scoring.rubricRequired });
    const [row] = await getDb().select({ scoreCenti: submissions.scoreCenti }).from(submissions).where(eq(submissions.id, ids[0]));
    expect(row.scoreCenti).toBeNull();
  });

  it("says which line of a typed rubric is wrong", () => {
    const parsed = ChallengeFormSchema.safeParse({ ...base, points: "150", title: "t", rubric: "Clarity | 2 | 10\nCraft | 2" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([messages.rubric.badLine(2)]);
  });
});

describe("blind judging", () => {
  it("shows judges a stable label instead of team, member and file names; admins still see them", async () => {
    const [judge, admin] = [await makeUser("judge"), await makeUser("admin")];
    const challenge = await makeChallenge({ wave: 1 });
    const { ids, teams } = await answers(1, challenge);
    await getDb().update(eventSettings).set({ blindJudging: true }).where(eq(eventSettings.id, 1));

    const seen = await open(judge.id, `?s=${ids[0]}`);
    const label = anonymousTeamName(teams[0].team.id);
    expect(label).toMatch(/^Team [A-Z2-9]{6}$/);
    expect(seen.current).toMatchObject({ team: label, user: null });
    expect(seen.queue.find((item) => item.id === ids[0])?.team).toBe(label);
    expect(JSON.stringify(seen)).not.toContain(teams[0].team.name);
    expect(JSON.stringify(seen)).not.toContain(teams[0].member.name);

    const table = await submissionsTable({ request: new Request("http://localhost/dashboard/submissions?sort=team", { headers: { Cookie: await sessionCookie(judge.id) } }), params: {}, context: {} });
    expect(JSON.stringify(table.rows)).not.toContain(teams[0].team.name);
    expect(table.rows.find((row) => row.id === ids[0])).toMatchObject({ team: label, user: null });

    expect((await open(admin.id, `?s=${ids[0]}`)).current?.team).toBe(teams[0].team.name);

    // A file's name is hidden too: in the page, shown inline, and downloaded (from our server, not storage).
    const file = { key: newObjectKey("submissions"), name: `${teams[0].team.name}-logo.png`, type: "image/png", size: PNG.length };
    await uploadStream({ key: file.key, body: Readable.from([PNG]), limitBytes: 1000 });
    await saveSubmission({ actor: actorFor(teams[0].member.id, undefined, "participant"), teamId: teams[0].team.id, challengeId: challenge.id, text: null, file });
    const withFile = await open(judge.id, `?s=${ids[0]}`);
    expect(withFile.current?.file?.name).toBe("file.png");
    expect(JSON.stringify(withFile)).not.toContain(teams[0].team.name);
    const judgeCookie = await sessionCookie(judge.id);
    const inline = await fileRoute("inline", judgeCookie, ids[0]);
    expect(inline.headers.get("Content-Disposition")).toMatch(/^inline; filename="file\.png"/);
    const download = await fileRoute("file", judgeCookie, ids[0]);
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Disposition")).toBe("attachment; filename=\"file.png\"; filename*=UTF-8''file.png");
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);
    // An admin still gets the named file from storage.
    expect((await fileRoute("file", await sessionCookie(admin.id), ids[0])).status).toBe(302);
    // Published: the names are back.
    await getDb().update(eventSettings).set({ blindJudging: false }).where(eq(eventSettings.id, 1));
    expect((await open(judge.id, `?s=${ids[0]}`)).current?.team).toBe(teams[0].team.name);
  });
});
