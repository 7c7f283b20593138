/**
 * A file name a team chose can never read as another (app/modules/file-names.ts): "photo\u202Egnp.scr", whose
 * right-to-left override makes it read "photorcs.png", is shown as "photo<U+202E>gnp.scr" on the judge's
 * page, in the submission lists and the API, in the download's header and in the audit trail's CSV, for an
 * upload and for a name stored before the rule alike.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { gates, submissions } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { apiRequest, call, makeCallers, send } from "../support/api.ts";
import { makeChallenge, sessionCookie } from "../support/fixtures.ts";
import * as submitRoute from "../../app/routes/api.v1.challenges.$id.submission.tsx";
import * as submissionsApi from "../../app/routes/api.v1.submissions.tsx";
import * as fileApi from "../../app/routes/api.v1.submissions.$id.file.tsx";
import { loader as judgePage } from "../../app/routes/dashboard.judge.tsx";
import { loader as submissionsTable } from "../../app/routes/dashboard.submissions.tsx";
import { loader as auditCsv } from "../../app/routes/dashboard.exports.audit[.csv].tsx";

const TRICK = "photo\u202Egnp.scr";
const SHOWN = "photo<U+202E>gnp.scr";
const HIDDEN = /[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u061C\u2060\uFEFF]/;

let callers: Awaited<ReturnType<typeof makeCallers>>;

beforeAll(async () => {
  await getDb()
    .insert(gates)
    .values([1, 2, 3, 4, 5].map((number) => ({ number, title: `Gate ${number}`, description: "d", opensAt: new Date(Date.now() - 3_600_000) })))
    .onConflictDoUpdate({ target: gates.number, set: { opensAt: new Date(Date.now() - 3_600_000) } });
  callers = await makeCallers();
});

async function upload(challengeId: number): Promise<number> {
  const form = new FormData();
  form.append("text", "see the file");
  form.append("file", new Blob(["MZ not really a picture"]), TRICK);
  const answer = await call(submitRoute, apiRequest("POST", `/challenges/${challengeId}/submission`, { token: callers.tokens.participant, body: form }), { id: String(challengeId) });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { submissionId: number }).submissionId;
}

async function loaded<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown as T;
    throw thrown;
  }
}

/** The judge's workspace on one submission, as the page's data carries it. */
async function workspace(submissionId: number) {
  const cookie = await sessionCookie(callers.users.judge.id);
  const page = await loaded(judgePage({ request: new Request(`http://localhost/dashboard/judge?s=${submissionId}`, { headers: { Cookie: cookie } }), params: {}, context: {} }));
  return JSON.stringify(page);
}

/** The download's Content-Disposition: storage's answer to the presigned URL. */
async function downloadDisposition(submissionId: number) {
  const redirect = await call(fileApi, apiRequest("GET", `/submissions/${submissionId}/file`, { token: callers.tokens.admin }), { id: String(submissionId) });
  expect(redirect.status).toBe(302);
  const location = redirect.headers.get("Location")!;
  const stored = await fetch(location);
  await stored.arrayBuffer();
  return { header: stored.headers.get("Content-Disposition"), asked: new URL(location).searchParams.get("response-content-disposition") };
}

describe("a file name with a direction override", () => {
  it("uploaded: stored, listed, shown to the judge, downloaded and exported as its code points", async () => {
    const challenge = await makeChallenge({ wave: 1 });
    const id = await upload(challenge.id);
    const [row] = await getDb().select({ fileName: submissions.fileName }).from(submissions).where(eq(submissions.id, id));
    expect(row.fileName).toBe(SHOWN);

    const page = await workspace(id);
    expect(page).toContain(SHOWN);
    expect(page).not.toMatch(HIDDEN);

    const list = await send(submissionsApi, "GET", "/submissions", { token: callers.tokens.judge });
    expect(list.body!.find((candidate) => candidate.id === id)?.fileName).toBe(SHOWN);

    const { header, asked } = await downloadDisposition(id);
    for (const value of [header, asked]) {
      expect(value).toBe(`attachment; filename="${SHOWN}"; filename*=UTF-8''photo%3CU%2B202E%3Egnp.scr`);
    }

    const csv = (await loaded(auditCsv({ request: new Request(`http://localhost/dashboard/exports/audit.csv?team=${callers.team.id}`, { headers: { Cookie: await sessionCookie(callers.users.admin.id) } }), params: {}, context: {} }))) as Response;
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text).toContain(SHOWN);
    expect(text).not.toMatch(HIDDEN);
  });

  it("stored before the rule: shown as its code points on the judge's page, in the tables, the API and the download", async () => {
    const challenge = await makeChallenge({ wave: 1 });
    const id = await upload(challenge.id);
    // As a row written before uploads kept the shown form.
    await getDb().update(submissions).set({ fileName: TRICK }).where(eq(submissions.id, id));

    const page = await workspace(id);
    expect(page).toContain(SHOWN);
    expect(page).not.toMatch(HIDDEN);

    const table = await submissionsTable({ request: new Request("http://localhost/dashboard/submissions", { headers: { Cookie: await sessionCookie(callers.users.admin.id) } }), params: {}, context: {} });
    expect(table.rows.find((candidate) => candidate.id === id)?.fileName).toBe(SHOWN);
    const list = await send(submissionsApi, "GET", "/submissions", { token: callers.tokens.admin });
    expect(list.body!.find((candidate) => candidate.id === id)?.fileName).toBe(SHOWN);

    const { header } = await downloadDisposition(id);
    expect(header).toBe(`attachment; filename="${SHOWN}"; filename*=UTF-8''photo%3CU%2B202E%3Egnp.scr`);
  });
});
