/**
 * Reading the audit trail (docs/domain.md "Audit trail"): each filter alone and combined, keyset paging
 * that never repeats or skips records of the same instant, refused filters, the CSV and the API's roles.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { recordAudit, systemActor, type Actor } from "../../app/modules/audit/audit.server.ts";
import { auditCsv } from "../../app/modules/audit/csv.server.ts";
import { auditPage, type AuditPageResult } from "../../app/modules/audit/read.server.ts";
import { auditQuerySchema, parseCursor, type AuditFilter, type AuditPosition } from "../../app/modules/audit/schema.ts";
import { messages } from "../../app/modules/messages.ts";
import { loader as pageLoader } from "../../app/routes/dashboard.audit.tsx";
import { loader as csvLoader } from "../../app/routes/dashboard.exports.audit[.csv].tsx";
import * as apiAudit from "../../app/routes/api.v1.audit.tsx";
import { makeCallers, send } from "../support/api.ts";
import { ensureEventSettings, makeTeam, makeUser, sessionCookie } from "../support/fixtures.ts";
import { answerOf } from "../support/route-manifest.ts";

const ZONE = "Africa/Algiers"; // UTC+1 all year: the event's default zone
const T0 = Date.parse("2026-11-24T08:00:00.000Z"); // 09:00 in the event's zone

type Team = Awaited<ReturnType<typeof makeTeam>>;
type User = Awaited<ReturnType<typeof makeUser>>;

let teamA: Team;
let teamB: Team;
let admin: User;
let judge: User;
let alice: User; // participant of team A
let bob: User; // participant of team B

const actor = (user: User): Actor => ({ id: user.id, name: user.name, role: user.role, via: "session", sessionId: null, tokenId: null, ip: "203.0.113.7" });

async function record(by: Actor, kind: Parameters<typeof recordAudit>[2]["kind"], at: number, over: Partial<Parameters<typeof recordAudit>[2]> = {}) {
  await recordAudit(getDb(), by, { kind, at: new Date(at), ...over });
}

/** Every record of a filter, page by page (older links), as ids. */
async function allPages(filter: AuditFilter, limit: number): Promise<number[]> {
  const ids: number[] = [];
  let position: AuditPosition = null;
  for (let guard = 0; guard < 1000; guard++) {
    const page: AuditPageResult = await auditPage(filter, position, limit);
    ids.push(...page.records.map((row) => row.id));
    if (!page.older) return ids;
    position = { before: parseCursor(page.older)! };
  }
  throw new Error("paging did not end");
}

/** The same filter read in one go, newest first, straight from the table. */
async function expectedIds(where: ReturnType<typeof sql>): Promise<number[]> {
  const rows = await getDb().execute<{ id: string }>(sql`select a.id::text as id from audit_log a where ${where} order by a.at desc, a.id desc`);
  return rows.map((row) => Number(row.id));
}

const ALL = sql`true`;

/** What a loader returned or threw (a refusal is thrown). */
async function settle(result: Promise<unknown>): Promise<unknown> {
  try {
    return await result;
  } catch (thrown) {
    return thrown;
  }
}

beforeAll(async () => {
  await ensureEventSettings();
  teamA = await makeTeam("Phoenix");
  teamB = await makeTeam("Kraken");
  admin = await makeUser("admin", null, "audit-admin");
  judge = await makeUser("judge", null, "audit-judge");
  alice = await makeUser("participant", teamA.id, "alice");
  bob = await makeUser("participant", teamB.id, "bob");
  const minute = 60_000;
  // A morning of changes, one a minute from 09:00 (event time).
  await record(actor(alice), "submission.created", T0, { teamId: teamA.id, subjectId: 11, after: { challenge: "Cipher", text: "our answer" } });
  await record(actor(bob), "submission.created", T0 + minute, { teamId: teamB.id, subjectId: 12, after: { challenge: "Cipher", text: "=HYPERLINK(\"http://evil.example\")" } });
  await record(actor(judge), "score.given", T0 + 2 * minute, {
    teamId: teamA.id,
    subjectId: 11,
    before: { challenge: "Cipher", score: null, comment: null, submissionScore: null, status: "pending" },
    after: { challenge: "Cipher", score: 80, comment: "good", submissionScore: 80, status: "reviewed" },
  });
  await record(actor(judge), "score.changed", T0 + 3 * minute, {
    teamId: teamA.id,
    subjectId: 11,
    before: { challenge: "Cipher", score: 80, comment: "good", submissionScore: 80, status: "reviewed" },
    after: { challenge: "Cipher", score: 65, comment: "good", submissionScore: 65, status: "reviewed" },
  });
  await record(actor(admin), "user.updated", T0 + 4 * minute, { teamId: teamA.id, userId: alice.id, subjectId: alice.id, before: { name: "alice", role: "participant" }, after: { name: "alice", role: "judge" } });
  await record(actor(admin), "team.renamed", T0 + 5 * minute, { teamId: teamB.id, subjectId: teamB.id, before: { name: "Krakn" }, after: { name: "Kraken" } });
  await record(actor(alice), "user.updated", T0 + 6 * minute, { userId: alice.id, subjectId: alice.id, before: { name: "alice" }, after: { name: "alice" } });
  await record(systemActor("seed"), "scoreboard.frozen", T0 + 7 * minute, { before: { frozen: false }, after: { frozen: true } });
});

describe("reading the trail", () => {
  it("lists newest first, with who, the team's and the user's names", async () => {
    const page = await auditPage({}, null, 50);
    expect(page.records.map((row) => row.kind).slice(0, 3)).toEqual(["scoreboard.frozen", "user.updated", "team.renamed"]);
    expect(page.older).toBeNull();
    expect(page.newer).toBeNull();
    const renamed = page.records.find((row) => row.kind === "team.renamed")!;
    expect(renamed.team).toEqual({ id: teamB.id, name: "Kraken" });
    expect(renamed.actor).toMatchObject({ id: admin.id, name: "audit-admin", role: "admin", via: "session", ip: "203.0.113.7" });
    expect(page.records.find((row) => row.kind === "user.updated" && row.actor.id === admin.id)!.user).toEqual({ id: alice.id, name: "alice" });
  });

  it("filters by team, kind and time, each alone", async () => {
    expect(await allPages({ teamId: teamA.id }, 2)).toEqual(await expectedIds(sql`team_id = ${teamA.id}`));
    expect((await allPages({ teamId: teamA.id }, 2)).length).toBe(4);
    expect(await allPages({ kind: "submission.created" }, 1)).toEqual(await expectedIds(sql`kind = 'submission.created'`));
    const from = new Date(T0 + 2 * 60_000);
    const until = new Date(T0 + 4 * 60_000);
    const timed = await auditPage({ from, until }, null, 50);
    expect(timed.records.map((row) => row.kind)).toEqual(["score.changed", "score.given"]);
  });

  it("filters by user: the records they made and those about them, once each", async () => {
    const ids = await allPages({ userId: alice.id }, 1);
    // Alice's submission, the admin's change of her role, and her own change of herself (read once).
    expect(ids).toEqual(await expectedIds(sql`actor_id = ${alice.id} or user_id = ${alice.id}`));
    expect(ids).toHaveLength(3);
    expect(await allPages({ userId: judge.id }, 50)).toEqual(await expectedIds(sql`actor_id = ${judge.id} or user_id = ${judge.id}`));
  });

  it("combines filters", async () => {
    expect(await allPages({ teamId: teamA.id, kind: "score.changed" }, 50)).toEqual(await expectedIds(sql`team_id = ${teamA.id} and kind = 'score.changed'`));
    expect(await allPages({ userId: judge.id, teamId: teamA.id, kind: "score.given" }, 50)).toHaveLength(1);
    expect(await allPages({ userId: alice.id, teamId: teamA.id }, 50)).toEqual(await expectedIds(sql`(actor_id = ${alice.id} or user_id = ${alice.id}) and team_id = ${teamA.id}`));
    expect(await allPages({ userId: bob.id, kind: "score.given" }, 50)).toEqual([]);
    const from = new Date(T0 + 60_000);
    expect(await allPages({ teamId: teamA.id, from, until: new Date(T0 + 10 * 60_000) }, 1)).toEqual(
      await expectedIds(sql`team_id = ${teamA.id} and at >= ${from.toISOString()}::timestamptz`),
    );
  });

  it("pages records of the same instant, and of the same millisecond, without repeating or skipping one", async () => {
    const team = await makeTeam();
    // 7 records at one instant, 5 a microsecond apart within one millisecond, 3 more at another instant.
    await getDb().execute(sql`insert into audit_log (at, kind, via, team_id) select timestamptz '2026-11-25 10:00:00.123456+00', 'team.renamed', 'system', ${team.id} from generate_series(1, 7)`);
    await getDb().execute(sql`insert into audit_log (at, kind, via, team_id)
      select timestamptz '2026-11-25 10:00:00.123000+00' + i * interval '1 microsecond', 'team.renamed', 'system', ${team.id} from generate_series(1, 5) i`);
    await getDb().execute(sql`insert into audit_log (at, kind, via, team_id) select timestamptz '2026-11-25 09:00:00+00', 'team.renamed', 'system', ${team.id} from generate_series(1, 3)`);
    const expected = await expectedIds(sql`team_id = ${team.id}`);
    expect(expected).toHaveLength(15);
    for (const limit of [1, 2, 3, 4, 7, 14, 15, 50]) expect(await allPages({ teamId: team.id }, limit), `limit ${limit}`).toEqual(expected);

    // Older, older, then back by the newer links: the same pages again.
    const first = await auditPage({ teamId: team.id }, null, 4);
    const second = await auditPage({ teamId: team.id }, { before: parseCursor(first.older!)! }, 4);
    const third = await auditPage({ teamId: team.id }, { before: parseCursor(second.older!)! }, 4);
    expect(third.records.map((row) => row.id)).toEqual(expected.slice(8, 12));
    const back = await auditPage({ teamId: team.id }, { after: parseCursor(third.newer!)! }, 4);
    expect(back.records.map((row) => row.id)).toEqual(second.records.map((row) => row.id));
    expect(back.older).toBe(second.older);
    const top = await auditPage({ teamId: team.id }, { after: parseCursor(back.newer!)! }, 4);
    expect(top.records.map((row) => row.id)).toEqual(first.records.map((row) => row.id));
    expect(top.newer).toBeNull();
  });
});

describe("the filter's schema", () => {
  const parse = (query: Record<string, string>) => auditQuerySchema(ZONE).safeParse(query);

  it("reads wall-clock times in the event's zone, `to` including the minute it names", () => {
    const parsed = parse({ from: "2026-11-24T09:02", to: "2026-11-24T09:03" });
    expect(parsed.success && parsed.data.filter).toEqual({ from: new Date("2026-11-24T08:02:00Z"), until: new Date("2026-11-24T08:04:00Z") });
    const seconds = parse({ to: "2026-11-24T09:03:30" });
    expect(seconds.success && seconds.data.filter.until).toEqual(new Date("2026-11-24T08:03:31Z"));
    const instant = parse({ from: "2026-11-24T08:02:00Z" });
    expect(instant.success && instant.data.filter.from).toEqual(new Date("2026-11-24T08:02:00Z"));
  });

  it("refuses what it cannot read, each with its message", () => {
    const refusals: Array<[Record<string, string>, string, string]> = [
      [{ kind: "score.deleted" }, "kind", messages.audit.kindInvalid],
      [{ team: "abc" }, "team", messages.audit.teamInvalid],
      [{ user: "0" }, "user", messages.audit.userInvalid],
      [{ from: "yesterday" }, "from", messages.audit.timeInvalid],
      [{ from: "2026-02-30T10:00" }, "from", messages.audit.timeImpossible],
      [{ from: "2026-11-24T10:00", to: "2026-11-24T09:00" }, "to", messages.audit.rangeReversed],
      [{ before: "12-x" }, "before", messages.audit.cursorInvalid],
      [{ before: "1-1", after: "1-1" }, "after", messages.audit.bothCursors],
      [{ limit: "500" }, "limit", messages.audit.limitInvalid],
    ];
    for (const [query, field, message] of refusals) {
      const parsed = parse(query);
      expect(parsed.success, JSON.stringify(query)).toBe(false);
      if (!parsed.success) expect(parsed.error.issues.find((issue) => issue.path[0] === field)?.message, JSON.stringify(query)).toBe(message);
    }
    // A wall-clock time the zone skips (Paris, spring forward).
    const skipped = auditQuerySchema("Europe/Paris").safeParse({ from: "2026-03-29T02:30" });
    expect(!skipped.success && skipped.error.issues[0].message).toBe(messages.audit.timeSkipped);
  });
});

describe("the page", () => {
  const open = async (userId: number, query: string) =>
    answerOf(await settle(pageLoader({ request: new Request(`http://localhost/dashboard/audit${query}`, { headers: { Cookie: await sessionCookie(userId) } }), params: {}, context: {} })));

  it("shows the records of its filters with before → after, in the event's time zone to the second", async () => {
    const answer = await open(admin.id, `?team=${teamA.id}&kind=score.changed`);
    expect(answer.status).toBe(200);
    const body = answer.body as Awaited<ReturnType<typeof pageLoader>> & { records: Array<Record<string, unknown>> };
    expect(body.records).toHaveLength(1);
    expect(body.records[0]).toMatchObject({
      kindLabel: "Score changed",
      atText: "Tue 24 Nov 2026, 9:03:00 AM",
      subject: "Submission #11",
      title: "Cipher",
      mode: "changed",
      changed: [
        { field: "score", label: "score", before: "80", after: "65" },
        { field: "submissionScore", label: "submission score", before: "80", after: "65" },
      ],
      team: { id: teamA.id, name: "Phoenix" },
      actor: { name: "audit-judge", role: "judge", via: "session", ip: "203.0.113.7" },
    });
    expect((body.records[0].unchanged as Array<{ field: string }>).map((change) => change.field).sort()).toEqual(["challenge", "comment", "status"]);
  });

  it("answers a bad filter with 400, the messages and what was typed", async () => {
    const answer = await open(admin.id, "?kind=nope&from=2026-02-30T10:00&team=");
    expect(answer.status).toBe(400);
    const body = answer.body as { errors: Record<string, string[]>; values: Record<string, string>; records: unknown[] };
    expect(body.errors).toEqual({ kind: [messages.audit.kindInvalid], from: [messages.audit.timeImpossible] });
    expect(body.values).toMatchObject({ kind: "nope", from: "2026-02-30T10:00", team: "" });
    expect(body.records).toEqual([]);
    const reversed = await open(admin.id, "?from=2026-11-24T10:00&to=2026-11-24T09:00");
    expect(reversed.status).toBe(400);
    expect((reversed.body as { errors: Record<string, string[]> }).errors).toEqual({ to: [messages.audit.rangeReversed] });
  });

  it("is refused to judges and participants", async () => {
    expect((await open(judge.id, "")).status).toBe(403);
    expect((await open(bob.id, "")).status).toBe(403);
  });
});

describe("the CSV", () => {
  const download = async (userId: number, query: string) =>
    answerOf(await settle(csvLoader({ request: new Request(`http://localhost/dashboard/exports/audit.csv${query}`, { headers: { Cookie: await sessionCookie(userId) } }), params: {}, context: {} })));

  it("holds every record of the filters, newest first, readable and defused", async () => {
    const answer = await download(admin.id, `?team=${teamA.id}`);
    expect(answer.status).toBe(200);
    const response = answer.body as Response;
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    // The byte-order mark, which Response.text() would drop.
    const csv = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const lines = csv.slice(1).split("\r\n").filter(Boolean);
    expect(lines[0]).toBe(
      `Record,Time (UTC),Time (${ZONE}),Kind,Change,Actor id,Actor,Actor role,Via,Session id,Token id,IP,Team id,Team,User id,User,Subject,Title,Changes,Before (JSON),After (JSON)`,
    );
    expect(lines).toHaveLength(1 + 4);
    expect(lines[1]).toContain(",user.updated,User changed,");
    expect(lines[2]).toContain("2026-11-24T08:03:00.000Z,\"Tue 24 Nov 2026, 9:03:00 AM\",score.changed,Score changed,");
    expect(lines[2]).toContain(",Submission #11,Cipher,score 80 → 65; submission score 80 → 65,");
  });

  it("defuses formulas, and streams the whole trail in chunks without losing a row", async () => {
    const team = await makeTeam("=SUM(1+1)");
    await record(actor(admin), "team.created", T0 + 8 * 60_000, { teamId: team.id, subjectId: team.id, after: { name: "=SUM(1+1)" } });
    const whole = await download(admin.id, `?team=${team.id}`);
    const csv = await (whole.body as Response).text();
    expect(csv).toContain(`,${team.id},'=SUM(1+1),`);
    expect(csv).not.toMatch(/,=SUM/);

    let text = "";
    let chunks = 0;
    for await (const chunk of auditCsv({}, ZONE, 2)) {
      text += chunk;
      chunks++;
    }
    const ids = text
      .slice(1)
      .split("\r\n")
      .slice(1)
      .filter(Boolean)
      .map((line) => Number(line.split(",")[0]));
    expect(ids).toEqual(await expectedIds(ALL));
    expect(chunks).toBeGreaterThan(ids.length / 2);
  });

  it("refuses a bad filter with 400 and says why, and judges get 403", async () => {
    const bad = await download(admin.id, "?from=soon");
    expect(bad.status).toBe(400);
    expect(await (bad.body as Response).text()).toBe(`${messages.audit.filtersInvalid}\n${messages.audit.timeInvalid}`);
    expect((await download(judge.id, "")).status).toBe(403);
  });
});

describe("GET /api/v1/audit", () => {
  let callers: Awaited<ReturnType<typeof makeCallers>>;
  beforeAll(async () => {
    callers = await makeCallers();
  });

  it("answers admins' tokens with a page and its cursors, and refuses judges' and participants'", async () => {
    const first = await send(apiAudit, "GET", `/audit?team=${teamA.id}&limit=3`, { token: callers.tokens.admin });
    expect(first.status).toBe(200);
    const body = first.body as unknown as { records: Array<Record<string, unknown>>; older: string | null; newer: string | null };
    expect(body.records.map((row) => row.kind)).toEqual(["user.updated", "score.changed", "score.given"]);
    expect(body.records[1]).toMatchObject({
      at: "2026-11-24T08:03:00.000Z",
      kindLabel: "Score changed",
      subject: "Submission #11",
      team: { id: teamA.id, name: "Phoenix" },
      actor: { id: judge.id, name: "audit-judge", role: "judge", via: "session", sessionId: null, tokenId: null, ip: "203.0.113.7" },
      before: { score: 80 },
      after: { score: 65 },
    });
    expect(body.newer).toBeNull();
    const next = await send(apiAudit, "GET", `/audit?team=${teamA.id}&limit=3&before=${body.older}`, { token: callers.tokens.admin });
    expect((next.body as unknown as { records: Array<{ kind: string }>; older: string | null }).records.map((row) => row.kind)).toEqual(["submission.created"]);
    expect((next.body as unknown as { older: string | null }).older).toBeNull();

    for (const role of ["judge", "participant"] as const) {
      const refused = await send(apiAudit, "GET", "/audit", { token: callers.tokens[role] });
      expect(refused.status, role).toBe(403);
      expect(refused.body).toMatchObject({ code: "forbidden" });
    }
  });

  it("refuses a bad filter with 400 naming the field", async () => {
    const bad = await send(apiAudit, "GET", "/audit?kind=nope&limit=0", { token: callers.tokens.admin });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "validation_failed", fieldErrors: { kind: [messages.audit.kindInvalid], limit: [messages.audit.limitInvalid] } });
  });
});
