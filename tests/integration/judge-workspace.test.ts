/**
 * The judge's workspace (/dashboard/judge): the queue and its backlog, a score that saves and opens the
 * next one, a team's change bringing a submission back with its earlier version kept, a score refused
 * for a version the judge has not seen, and the submitted file shown only when its bytes allow it.
 */
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { gates, submissions, submissionScores, submissionVersions } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { newObjectKey, objectExists, uploadStream } from "../../app/infrastructure/s3.server.ts";
import { judgeBacklog, judgeHistory, judgeQueue } from "../../app/modules/judging/queue.server.ts";
import { messages } from "../../app/modules/messages.ts";
import { KEPT_VERSION_FILES, saveSubmission, type StoredFile } from "../../app/modules/submissions/submit.server.ts";
import { action, loader } from "../../app/routes/dashboard.judge.tsx";
import { loader as inlineLoader } from "../../app/routes/submissions.$id.inline.tsx";
import { loader as fileLoader } from "../../app/routes/submissions.$id.file.tsx";
import { makeChallenge, makeTeam, makeUser, sessionCookie, actorFor } from "../support/fixtures.ts";

const HOUR = 3_600_000;
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

beforeAll(async () => {
  await getDb()
    .insert(gates)
    .values([1, 2, 3, 4, 5].map((number) => ({ number, title: `Gate ${number}`, description: "d", opensAt: new Date(Date.now() - HOUR) })));
});

async function stored(body: Buffer | string, name: string, type = "application/octet-stream"): Promise<StoredFile> {
  const key = newObjectKey("submissions");
  const { size } = await uploadStream({ key, body: Readable.from([Buffer.from(body)]), limitBytes: 1_000_000 });
  return { key, name, type, size };
}

async function send(teamId: number, userId: number, challengeId: number, text: string, file: StoredFile | null = null) {
  return (await saveSubmission({ actor: actorFor(userId, undefined, "participant"), teamId, challengeId, text, file })).submissionId;
}

/** The workspace as a browser gets it: a submission handed out is pinned in the URL by a redirect, followed here. */
async function page(cookie: string, search = "") {
  const load = (path: string) => loader({ request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }), params: {}, context: {} });
  try {
    return await load(`/dashboard/judge${search}`);
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status === 302) return load(thrown.headers.get("Location")!);
    throw thrown;
  }
}

async function post(cookie: string, fields: Record<string, string>, search = "") {
  const request = new Request(`http://localhost/dashboard/judge${search}`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: "http://localhost" },
    body: new URLSearchParams(fields),
  });
  try {
    return await action({ request, params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

type Refused = { data: { error?: Record<string, string[]>; initialValue?: Record<string, string> }; init: { status?: number } | null };

async function fileAnswer(kind: "inline" | "file", cookie: string, submissionId: number, version?: number) {
  const url = `http://localhost/submissions/${submissionId}/${kind}${version ? `?version=${version}` : ""}`;
  const load = kind === "inline" ? inlineLoader : fileLoader;
  try {
    return (await load({ request: new Request(url, { headers: { Cookie: cookie } }), params: { id: String(submissionId) }, context: {} })) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("the judge's queue", () => {
  it("holds what this judge has not scored, oldest first; a team's change brings a scored one back, marked, with its earlier version", async () => {
    const [judge, other] = [await makeUser("judge"), await makeUser("judge")];
    const teams = [await makeTeam(), await makeTeam(), await makeTeam()];
    const members = await Promise.all(teams.map((team) => makeUser("participant", team.id)));
    const ai = await makeChallenge({ wave: 1, category: "AI" });
    const gd = await makeChallenge({ wave: 2, category: "GD" });
    const first = await send(teams[0].id, members[0].id, ai.id, "first");
    const second = await send(teams[1].id, members[1].id, gd.id, "second");
    const third = await send(teams[2].id, members[2].id, ai.id, "third");

    expect((await judgeQueue(judge.id)).map((item) => item.id)).toEqual([first, second, third]);
    expect(await judgeBacklog(judge.id)).toEqual({
      total: 3,
      byGate: { 1: 2, 2: 1, 3: 0, 4: 0, 5: 0 },
      byCategory: { AI: 2, CS: 0, PS: 0, GD: 1 },
    });
    expect((await judgeQueue(judge.id, { category: "GD" })).map((item) => item.id)).toEqual([second]);
    expect((await judgeQueue(judge.id, { gate: 1 })).map((item) => item.id)).toEqual([first, third]);

    // Scoring through the page: saved, then the next one the page named, with the score confirmed.
    const cookie = await sessionCookie(judge.id);
    const before = await page(cookie);
    expect(before.current?.id).toBe(first);
    expect(before.next).toBe(second);
    const saved = (await post(cookie, { submissionId: String(first), score: "80", comment: "Clear", revision: before.current!.revisedAt.toISOString() })) as Response;
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/dashboard/judge?after=${first}&saved=${first}`);
    const after = await page(cookie, `?after=${first}&saved=${first}`);
    expect(after.current?.id).toBe(second);
    expect(after.saved).toMatchObject({ submissionId: first, scoreCenti: 8000, comment: "Clear" });
    expect(after.backlog.total).toBe(2);
    expect(after.queue.map((item) => item.id)).toEqual([second, third]);
    // Another judge still has it: every judge scores every submission, the mean counts.
    expect((await judgeQueue(other.id)).map((item) => item.id)).toEqual([first, second, third]);
    expect((await judgeHistory(judge.id)).map((entry) => [entry.submissionId, entry.scoreCenti])).toEqual([[first, 8000]]);

    // The team changes its answer: back in this judge's queue (now the newest), marked, the old text kept.
    await send(teams[0].id, members[0].id, ai.id, "first, improved");
    const queue = await judgeQueue(judge.id);
    expect(queue.map((item) => [item.id, item.changedSinceScore])).toEqual([
      [second, false],
      [third, false],
      [first, true],
    ]);
    const back = await page(cookie, `?s=${first}`);
    expect(back.current).toMatchObject({ text: "first, improved", mine: { scoreCenti: 8000, comment: "Clear" } });
    expect(back.current!.versions.map((version) => version.text)).toEqual(["first"]);
  });

  it("refuses a score for a version the judge has not seen, keeping what they typed", async () => {
    const judge = await makeUser("judge");
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    const challenge = await makeChallenge({ wave: 1, points: 50 });
    const id = await send(team.id, member.id, challenge.id, "v1");
    const cookie = await sessionCookie(judge.id);
    const seen = (await page(cookie, `?s=${id}`)).current!.revisedAt.toISOString();
    await send(team.id, member.id, challenge.id, "v2");

    // The form posts to the page it is on (?s=…): the refusal comes back there, beside the same submission.
    const refused = (await post(cookie, { submissionId: String(id), score: "40", comment: "good", revision: seen }, `?s=${id}`)) as unknown as Refused;
    expect(refused.init?.status).toBe(409);
    const after409 = await page(cookie, `?s=${id}`);
    expect(after409.current).toMatchObject({ id, text: "v2" });
    expect(refused.data.error?.[""]).toEqual([messages.scoring.changedWhileScoring]);
    expect(refused.data.initialValue).toMatchObject({ score: "40", comment: "good" });
    expect(await getDb().select().from(submissionScores).where(eq(submissionScores.submissionId, id))).toEqual([]);

    // Out of range: the scoring rules' own message, on the score.
    const fresh = (await page(cookie, `?s=${id}`)).current!.revisedAt.toISOString();
    const outOfRange = (await post(cookie, { submissionId: String(id), score: "51", revision: fresh })) as unknown as Refused;
    expect(outOfRange.init?.status).toBe(400);
    expect(outOfRange.data.error?.score).toEqual([messages.scoring.range(50)]);

    const ok = (await post(cookie, { submissionId: String(id), score: "40", revision: fresh })) as Response;
    expect(ok.status).toBe(302);
    const [row] = await getDb().select().from(submissions).where(eq(submissions.id, id));
    expect(row).toMatchObject({ scoreCenti: 4000, status: "reviewed" });
  });
});

describe("a submitted file in the workspace", () => {
  it("shows an image inline under its proven type, code as text, and keeps an SVG, whatever it claims, download-only", async () => {
    const judge = await makeUser("judge");
    const [team, outsiderTeam] = [await makeTeam(), await makeTeam()];
    const member = await makeUser("participant", team.id);
    const outsider = await makeUser("participant", outsiderTeam.id);
    const [c1, c2, c3] = [await makeChallenge({ wave: 1 }), await makeChallenge({ wave: 1 }), await makeChallenge({ wave: 1 })];
    const image = await send(team.id, member.id, c1.id, "", await stored(PNG, "banner.png", "text/html"));
    const code = await send(team.id, member.id, c2.id, "", await stored("print('hello')\n", "hello.py", "text/x-python"));
    const svg = await send(team.id, member.id, c3.id, "", await stored('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', "logo.png", "image/png"));
    const cookie = await sessionCookie(judge.id);

    expect((await page(cookie, `?s=${image}`)).current?.file?.view).toEqual({ kind: "image", type: "image/png" });
    const shown = await page(cookie, `?s=${code}`);
    expect(shown.current?.file).toMatchObject({ view: { kind: "text" }, text: { content: "print('hello')\n", truncated: false } });
    expect((await page(cookie, `?s=${svg}`)).current?.file?.view).toEqual({ kind: "download" });

    const inline = await fileAnswer("inline", cookie, image);
    expect(inline.status).toBe(200);
    expect(inline.headers.get("Content-Type")).toBe("image/png");
    expect(inline.headers.get("Content-Disposition")).toMatch(/^inline; filename="banner.png"/);
    expect(inline.headers.get("Content-Security-Policy")).toContain("sandbox");
    expect(Buffer.from(await inline.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fileAnswer("inline", cookie, svg)).status).toBe(415);
    expect((await fileAnswer("inline", cookie, code)).status).toBe(415);
    // Another team's participant learns nothing; the team's own member may look.
    expect((await fileAnswer("inline", await sessionCookie(outsider.id), image)).status).toBe(404);
    expect((await fileAnswer("inline", await sessionCookie(member.id), image)).status).toBe(200);
  });

  it("keeps the earlier version's file, which judges can still open", async () => {
    const judge = await makeUser("judge");
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    const challenge = await makeChallenge({ wave: 1 });
    const old = await stored(PNG, "old.png");
    const id = await send(team.id, member.id, challenge.id, "with a picture", old);
    await send(team.id, member.id, challenge.id, "with code", await stored("x = 1\n", "new.py"));
    const cookie = await sessionCookie(judge.id);
    const { current } = await page(cookie, `?s=${id}`);
    expect(current?.file?.name).toBe("new.py");
    const [version] = current!.versions;
    expect(version).toMatchObject({ text: "with a picture", file: { name: "old.png", size: PNG.length } });
    expect(await objectExists(old.key)).toBe(true);
    const inline = await fileAnswer("inline", cookie, id, version.id);
    expect(inline.headers.get("Content-Type")).toBe("image/png");
    expect((await fileAnswer("file", cookie, id, version.id)).status).toBe(302);
    // Another submission's version id names nothing here, and another team's participant gets nothing.
    const otherTeam = await makeTeam();
    const otherMember = await makeUser("participant", otherTeam.id);
    const otherId = await send(otherTeam.id, otherMember.id, challenge.id, "theirs", await stored(PNG, "theirs.png"));
    await send(otherTeam.id, otherMember.id, challenge.id, "theirs again", null);
    const [otherVersion] = await getDb().select({ id: submissionVersions.id }).from(submissionVersions).where(eq(submissionVersions.submissionId, otherId));
    expect((await fileAnswer("file", cookie, id, otherVersion.id)).status).toBe(404);
    expect((await fileAnswer("file", await sessionCookie(member.id), otherId, otherVersion.id)).status).toBe(404);
    expect((await fileAnswer("inline", await sessionCookie(member.id), otherId, otherVersion.id)).status).toBe(404);
    expect((await fileAnswer("file", await sessionCookie(otherMember.id), otherId, otherVersion.id)).status).toBe(302);
  });

  it(`keeps the files of the ${KEPT_VERSION_FILES} latest versions, and deletes older ones no version still uses`, async () => {
    const { getQueue } = await import("../../app/infrastructure/queue.server.ts");
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    const challenge = await makeChallenge({ wave: 1 });
    const files: StoredFile[] = [];
    let id = 0;
    for (let round = 0; round < KEPT_VERSION_FILES + 3; round += 1) {
      files.push(await stored(`version ${round}`, `v${round}.txt`));
      id = await send(team.id, member.id, challenge.id, `round ${round}`, files[round]);
      // A text-only update between: its version shares the file of the one before.
      if (round === 1) await send(team.id, member.id, challenge.id, "text only", null);
    }
    const versions = await getDb()
      .select({ fileKey: submissionVersions.fileKey, fileName: submissionVersions.fileName })
      .from(submissionVersions)
      .where(eq(submissionVersions.submissionId, id));
    expect(versions.filter((version) => version.fileKey !== null)).toHaveLength(KEPT_VERSION_FILES);
    expect(versions.filter((version) => version.fileKey === null).map((version) => version.fileName)).toEqual(["v0.txt", "v1.txt", "v1.txt"]);
    const cleanup = (await getQueue("storageCleanup").getJobs(["waiting", "delayed", "active", "completed"])).map((job) => job.data.key);
    expect(cleanup).toEqual(expect.arrayContaining([files[0].key, files[1].key]));
    expect(cleanup).not.toContain(files[2].key);
    const shown = await page(await sessionCookie((await makeUser("judge")).id), `?s=${id}`);
    expect(shown.current!.versions.filter((version) => version.fileDropped)).toHaveLength(3);
  });
});
