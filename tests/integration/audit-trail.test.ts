/**
 * The audit trail's writing side (docs/domain.md "Audit trail"): every kind of change leaves exactly one
 * record, written by the change's own transaction (the same Postgres transaction id), naming who did it
 * and how; a refused change leaves none; no record carries a password; and the database refuses to
 * rewrite a record.
 */
import { eq, gt, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, challengeHints, challenges, gates, registrations, submissionScores, submissions, teams, users } from "../../db/schema.ts";
import { getDb } from "../../app/infrastructure/db.server.ts";
import { auditKindList, type AuditKind } from "../../app/modules/audit/kinds.ts";
import { DomainError } from "../../app/modules/errors.ts";
import { createAnnouncement } from "../../app/modules/announcements/announcements.server.ts";
import { sendNotification } from "../../app/modules/notifications/notifications.server.ts";
import { updateVideos } from "../../app/modules/videos/videos.server.ts";
import { addMeal, removeMeal } from "../../app/modules/settings/settings.server.ts";
import { createApiToken, revokeApiToken } from "../../app/modules/api-tokens/tokens.server.ts";
import { createChallenge, deleteChallenge, setChallengeStatus, toggleChallengeStatus, updateChallenge } from "../../app/modules/challenges/challenges.server.ts";
import { importChallenges } from "../../app/modules/imports/challenges-import.server.ts";
import { importAccounts } from "../../app/modules/imports/accounts-import.server.ts";
import { updateFeedbackGates } from "../../app/modules/judging/feedback.server.ts";
import { updateJudgingSettings } from "../../app/modules/judging/settings.server.ts";
import { scoreSubmission } from "../../app/modules/scoring/scoring.server.ts";
import { updateFinalAt, updateFlagWrongPerMinute, updateGate, updateSubmissionsCloseAt } from "../../app/modules/settings/settings.server.ts";
import { sendFlag } from "../../app/modules/flags/guess.server.ts";
import { resetWrongAnswers, teamFlagsCsv } from "../../app/modules/flags/attempts.server.ts";
import { replaceHints, unlockHint } from "../../app/modules/flags/hints.server.ts";
import { saveWebhookSettings } from "../../app/modules/webhooks/settings.server.ts";
import { setScoreboardFrozen } from "../../app/modules/standings/freeze.server.ts";
import { saveSubmission } from "../../app/modules/submissions/submit.server.ts";
import { createTeam, deleteTeam, renameTeam, setTeamDivision, updateTeam } from "../../app/modules/teams/teams.server.ts";
import { updateTeamSizeCap } from "../../app/modules/teams/team-size.server.ts";
import { updateDivisions } from "../../app/modules/divisions/divisions.server.ts";
import { createUser, deleteUser, endUserSession, endUserSessions, updateUser } from "../../app/modules/users/users.server.ts";
import { startSession } from "../../app/modules/auth/sessions.server.ts";
import { sendSetPasswordLink } from "../../app/modules/mail/mails.server.ts";
import { createAccountsFromRegistrations } from "../../app/modules/registrations/accounts.server.ts";
import * as scoreRoute from "../../app/routes/api.v1.submissions.$id.score.tsx";
import { actorFor, ensureEventSettings, ensureTwoOpenGates, makeChallenge, makeTeam, makeUser } from "../support/fixtures.ts";
import { apiRequest, call } from "../support/api.ts";

const admin = actorFor(0, "Audit Admin", "admin");
const covered = new Set<AuditKind>();

async function lastId(): Promise<number> {
  const [row] = await getDb().select({ id: sql<string>`coalesce(max(${auditLog.id}), 0)` }).from(auditLog);
  return Number(row.id);
}

/** Runs a change and returns the records it left (and the change's own result). */
async function recordsOf<T>(change: () => Promise<T>) {
  const since = await lastId();
  const result = await change();
  const records = await getDb().select().from(auditLog).where(gt(auditLog.id, since)).orderBy(auditLog.id);
  for (const record of records) covered.add(record.kind as AuditKind);
  return { result, records };
}

/** Exactly one record, of this kind. */
async function oneRecord<T>(kind: AuditKind, change: () => Promise<T>) {
  const { result, records } = await recordsOf(change);
  expect(records.map((record) => record.kind)).toEqual([kind]);
  return { result, record: records[0] };
}

/**
 * A change that leaves no record: refused by a rule (a DomainError, never any other failure: a change that
 * broke for another reason proves nothing), or, with `unchanged`, accepted with nothing to change.
 */
async function noRecord(change: () => Promise<unknown>, outcome: "refused" | "unchanged" = "refused") {
  const since = await lastId();
  if (outcome === "refused") await expect(change()).rejects.toBeInstanceOf(DomainError);
  else await change();
  expect(await getDb().select().from(auditLog).where(gt(auditLog.id, since))).toEqual([]);
}

/** The Postgres transaction that wrote a row (its xmin). */
async function writerOf(table: string, id: number): Promise<string> {
  const [row] = await getDb().execute<{ xmin: string }>(sql`select xmin::text as xmin from ${sql.identifier(table)} where id = ${id}`);
  return row.xmin;
}

let adminUser: { id: number; name: string };

beforeAll(async () => {
  await ensureEventSettings();
  // Gate 1 is open (the submissions here go to wave-1 challenges).
  await getDb().insert(gates).values({ number: 1, title: "One", description: "d", opensAt: new Date(Date.now() - 3_600_000) }).onConflictDoNothing();
  const row = await makeUser("admin");
  adminUser = row;
  Object.assign(admin, { id: row.id, name: row.name });
});

describe("the audit trail is append-only", () => {
  it("refuses UPDATE, DELETE and TRUNCATE of its records, whoever asks", async () => {
    const team = await makeTeam();
    await oneRecord("team.renamed", () => renameTeam(admin, team.id, `${team.name} renamed`));
    const [record] = await getDb().select().from(auditLog).orderBy(sql`${auditLog.id} desc`).limit(1);
    const refusal = { cause: { message: expect.stringMatching(/^audit_log is append-only/) } };
    await expect(getDb().update(auditLog).set({ kind: "team.created" }).where(eq(auditLog.id, record.id))).rejects.toMatchObject(refusal);
    await expect(getDb().delete(auditLog).where(eq(auditLog.id, record.id))).rejects.toMatchObject(refusal);
    await expect(getDb().execute(sql`truncate ${auditLog}`)).rejects.toMatchObject(refusal);
    const [still] = await getDb().select().from(auditLog).where(eq(auditLog.id, record.id));
    expect(still).toEqual(record);
  });
});

describe("scores", () => {
  it("a first score and a changed one: who, before → after, comment, in the scoring transaction", async () => {
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    const judge = await makeUser("judge");
    const challenge = await makeChallenge({ points: 100, wave: 1 });
    const { result: saved } = await oneRecord("submission.created", () =>
      saveSubmission({ actor: actorFor(member.id, member.name, "participant"), teamId: team.id, challengeId: challenge.id, text: "our answer", file: null }),
    );
    const judgeActor = actorFor(judge.id, judge.name, "judge");

    const { record: given } = await oneRecord("score.given", () => scoreSubmission({ submissionId: saved.submissionId, judge: judgeActor, score: "80", comment: "solid" }));
    expect(given).toMatchObject({ actorId: judge.id, actorName: judge.name, actorRole: "judge", via: "session", ip: "127.0.0.1", teamId: team.id, subjectId: saved.submissionId });
    expect(given.before).toMatchObject({ score: null, submissionScore: null, status: "pending" });
    expect(given.after).toMatchObject({ challenge: challenge.title, score: 80, comment: "solid", submissionScore: 80, status: "reviewed" });

    const { record: changed } = await oneRecord("score.changed", () => scoreSubmission({ submissionId: saved.submissionId, judge: judgeActor, score: "65", comment: "on reflection" }));
    expect(changed.before).toMatchObject({ score: 80, comment: "solid", submissionScore: 80 });
    expect(changed.after).toMatchObject({ score: 65, comment: "on reflection", submissionScore: 65 });
    // Written by the transaction that wrote the score: no score exists without its record.
    const [score] = await getDb().select({ id: submissionScores.id }).from(submissionScores).where(eq(submissionScores.submissionId, saved.submissionId));
    expect(await writerOf("audit_log", changed.id)).toBe(await writerOf("submission_scores", score.id));

    // Saving the very same score again changes nothing: no record.
    await noRecord(() => scoreSubmission({ submissionId: saved.submissionId, judge: judgeActor, score: "65", comment: "on reflection" }), "unchanged");

    // A second judge: the mean moves, the record says so.
    const second = await makeUser("judge");
    const { record: other } = await oneRecord("score.given", () => scoreSubmission({ submissionId: saved.submissionId, judge: actorFor(second.id, second.name), score: "35", verdict: "rejected" }));
    expect(other.before).toMatchObject({ score: null, submissionScore: 65, status: "reviewed" });
    expect(other.after).toMatchObject({ score: 35, submissionScore: 50, status: "rejected" });

    // A comment a JSON body can carry but jsonb cannot store (a lone surrogate) does not fail the score.
    const { record: odd } = await oneRecord("score.changed", () => scoreSubmission({ submissionId: saved.submissionId, judge: actorFor(second.id, second.name), score: "35", verdict: "rejected", comment: "odd \ud800" }));
    expect(odd.after).toMatchObject({ comment: "odd \ufffd" });

    // Refused scores leave nothing.
    await noRecord(() => scoreSubmission({ submissionId: saved.submissionId, judge: judgeActor, score: "101" }));
    await noRecord(() => scoreSubmission({ submissionId: saved.submissionId, judge: judgeActor, score: "10", seenRevision: new Date(0) }));
    await noRecord(() => scoreSubmission({ submissionId: 2_000_000_000, judge: judgeActor, score: "10" }));
  });

  it("through the API with a token: the record names the token and the address", async () => {
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    const judge = await makeUser("judge");
    const challenge = await makeChallenge({ points: 50, wave: 1 });
    const { submissionId } = await saveSubmission({ actor: actorFor(member.id, member.name, "participant"), teamId: team.id, challengeId: challenge.id, text: "x", file: null });
    const { result: token } = await oneRecord("token.created", () => createApiToken(admin, judge.id, "judge's laptop"));
    const request = apiRequest("PUT", `/submissions/${submissionId}/score`, { token: token.token, json: { score: "40" }, headers: { "x-gatekeeper-client-ip": "::ffff:203.0.113.9" } });
    const { result: response, record } = await oneRecord("score.given", () => call(scoreRoute, request, { id: String(submissionId) }));
    expect(response.status).toBe(200);
    expect(record).toMatchObject({ actorId: judge.id, via: "token", tokenId: token.id, sessionId: null, ip: "203.0.113.9" });
  });
});

describe("submissions", () => {
  it("an update records who, the file and the text length before and after, never the text", async () => {
    const team = await makeTeam();
    const [a, b] = [await makeUser("participant", team.id), await makeUser("participant", team.id)];
    const challenge = await makeChallenge({ wave: 1 });
    await oneRecord("submission.created", () => saveSubmission({ actor: actorFor(a.id, a.name, "participant"), teamId: team.id, challengeId: challenge.id, text: "first secret answer", file: null }));
    const { record } = await oneRecord("submission.updated", () =>
      saveSubmission({ actor: actorFor(b.id, b.name, "participant"), teamId: team.id, challengeId: challenge.id, text: "second", file: { key: "submissions/k", name: "r.pdf", type: "application/pdf", size: 1234 } }),
    );
    expect(record).toMatchObject({ actorId: b.id, teamId: team.id, userId: b.id });
    expect(record.before).toMatchObject({ textLength: 19, fileKey: null, fileSize: null });
    expect(record.after).toMatchObject({ textLength: 6, fileKey: "submissions/k", fileName: "r.pdf", fileSize: 1234, status: "pending" });
    expect(JSON.stringify(record)).not.toContain("secret");
    const [row] = await getDb().select({ id: submissions.id }).from(submissions).where(eq(submissions.challengeId, challenge.id));
    expect(await writerOf("audit_log", record.id)).toBe(await writerOf("submissions", row.id));
    // Refused (empty, or a gate that is closed): nothing.
    await noRecord(() => saveSubmission({ actor: actorFor(a.id, a.name, "participant"), teamId: team.id, challengeId: challenge.id, text: "  ", file: null }));
  });
});

describe("challenges", () => {
  it("a flag challenge: created and edited with its checking; its answers as counts and kinds, never a value; a solve names the answer", async () => {
    const input = { title: "Audit flag", description: "d", points: 100, category: "CS" as const, wave: 1, checking: "flag" as const, answers: "exact: GK{audit-secret}\nregex: GK\\{[0-9]+\\}" };
    const { result: created, records } = await recordsOf(() => createChallenge(admin, input, null));
    expect(records.map((record) => record.kind)).toEqual(["challenge.created", "flag.answers"]);
    expect(records[0].after).toMatchObject({ checking: "flag", wrongPerMinute: null, maxAttempts: null });
    expect(records[1]).toMatchObject({ subjectId: created.id, before: null, after: { count: 2, kinds: { exact: 1, regex: 1 } } });
    const { record: answers } = await oneRecord("flag.answers", () => updateChallenge(admin, created.id, { ...input, answers: "any case: GK{audit-secret}" }, null));
    expect(answers).toMatchObject({ before: { count: 2 }, after: { count: 1, kinds: { exact_ci: 1 } } });
    const { record: limits } = await oneRecord("challenge.updated", () => updateChallenge(admin, created.id, { ...input, answers: "any case: GK{audit-secret}", maxAttempts: 3 }, null));
    expect(limits).toMatchObject({ before: { maxAttempts: null }, after: { checking: "flag", maxAttempts: 3 } });
    await noRecord(() => updateChallenge(admin, created.id, { ...input, answers: "any case: GK{audit-secret}", maxAttempts: 3 }, null), "unchanged");
    await noRecord(() => updateChallenge(admin, created.id, { ...input, answers: "regex: GK(" }, null));

    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    await ensureEventSettings();
    await ensureTwoOpenGates();
    const { record: solved } = await oneRecord("flag.solved", () =>
      sendFlag({ actor: actorFor(member.id, member.name, "participant"), teamId: team.id, challengeId: created.id, answer: "gk{AUDIT-SECRET}" }),
    );
    expect(solved.after).toMatchObject({ matched: "answer 1" });
    const all = await getDb().select().from(auditLog).where(eq(auditLog.subjectId, created.id));
    expect(JSON.stringify(all)).not.toContain("audit-secret");
  });

  it("flag challenges' other records: a team's wrong answers reset, per-team flags exported, a hint unlocked, the webhook set; never a flag, a hint's text or a secret", async () => {
    await ensureEventSettings();
    await ensureTwoOpenGates();
    const created = await createChallenge(admin, { title: "Audit per team", description: "d", points: 100, category: "CS" as const, wave: 1, checking: "flag" as const, answers: "per team: GK{<hmac>}" }, null);
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    const player = actorFor(member.id, member.name, "participant");
    await sendFlag({ actor: player, teamId: team.id, challengeId: created.id, answer: "GK{wrong}" });
    const { record: reset } = await oneRecord("flag.attempts-reset", () => resetWrongAnswers(admin, team.id, created.id));
    expect(reset).toMatchObject({ teamId: team.id, subjectId: created.id });
    const { result: exported, record: exportRecord } = await oneRecord("flag.export", () => teamFlagsCsv(admin, created.id));
    expect(exportRecord.subjectId).toBe(created.id);
    await getDb().transaction((tx) => replaceHints(tx, created.id, [{ text: "AUDIT-HINT-TEXT", costCenti: 1_000 }]));
    const [hint] = await getDb().select({ id: challengeHints.id }).from(challengeHints).where(eq(challengeHints.challengeId, created.id));
    const { record: unlocked } = await oneRecord("hint.unlocked", () => unlockHint({ actor: player, teamId: team.id, hintId: hint.id }));
    expect(unlocked).toMatchObject({ teamId: team.id, subjectId: created.id, after: { hint: 1, cost: 10 } });
    const { result: saved, record: webhook } = await oneRecord("event.webhook", () => saveWebhookSettings(admin, { url: "https://hooks.example.com/services/T0/B0/secret-path", format: "slack" }));
    expect(saved.newSecret).toBeTruthy();
    const records = JSON.stringify(await getDb().select().from(auditLog).where(gt(auditLog.id, reset.id)));
    const flagLine = exported.csv.trim().split("\n").find((line) => line.includes(team.name)) ?? "";
    expect(flagLine).toMatch(/GK\{[0-9a-f]{32}\}/);
    for (const secret of [flagLine.match(/GK\{[0-9a-f]{32}\}/)?.[0] ?? "none", "AUDIT-HINT-TEXT", saved.newSecret!, "secret-path"]) expect(records).not.toContain(secret);
    expect(webhook.after).toMatchObject({ format: "slack" });
  });

  it("create, edit (points), status both ways, delete, import", async () => {
    const input = { title: "Audit me", description: "d", points: 100, category: "CS" as const, wave: 2 };
    const { result: created, record } = await oneRecord("challenge.created", () => createChallenge(admin, input, null));
    expect(record.after).toMatchObject({ title: "Audit me", points: 100, category: "CS", wave: 2, status: "active" });
    const { record: edited } = await oneRecord("challenge.updated", () => updateChallenge(admin, created.id, { ...input, points: 150 }, null));
    expect(edited).toMatchObject({ subjectId: created.id, before: { points: 100 }, after: { points: 150 } });
    await noRecord(() => updateChallenge(admin, created.id, { ...input, points: 150 }, null), "unchanged");
    const { record: texts } = await oneRecord("challenge.updated", () => updateChallenge(admin, created.id, { ...input, points: 150, description: "clearer" }, null));
    expect(texts.after).toMatchObject({ descriptionChanged: true });
    const { record: off } = await oneRecord("challenge.status", () => toggleChallengeStatus(admin, created.id));
    expect(off).toMatchObject({ before: { status: "active" }, after: { status: "inactive" } });
    await oneRecord("challenge.status", () => setChallengeStatus(admin, created.id, "active"));
    // Setting the status it already has changes nothing: no record.
    await noRecord(() => setChallengeStatus(admin, created.id, "active"), "unchanged");
    await oneRecord("challenge.deleted", () => deleteChallenge(admin, created.id));
    await noRecord(() => deleteChallenge(admin, created.id));

    const { record: imported } = await oneRecord("import.challenges", () => importChallenges(admin, "title,description,points,category,wave\nImported one,d,10,AI,1\nImported two,d,20,PS,1\n", "c.csv"));
    expect(imported.after).toMatchObject({ file: "c.csv", created: 2 });
    // A refused import (a bad row) creates nothing and records nothing.
    await noRecord(() => importChallenges(admin, "title,description,points,category,wave\nBad,d,-1,AI,1\n", "c.csv"), "unchanged");
  });

  it("a challenge with submissions cannot be deleted: no record", async () => {
    const team = await makeTeam();
    const member = await makeUser("participant", team.id);
    const challenge = await makeChallenge({ wave: 1 });
    await saveSubmission({ actor: actorFor(member.id, member.name, "participant"), teamId: team.id, challengeId: challenge.id, text: "x", file: null });
    await noRecord(() => deleteChallenge(admin, challenge.id));
    expect(await getDb().select({ id: challenges.id }).from(challenges).where(eq(challenges.id, challenge.id))).toHaveLength(1);
  });
});

describe("the event's settings", () => {
  it("a gate, the final countdown, submissions close, judging, feedback, the freeze both ways; an unchanged save records nothing", async () => {
    const opensAt = new Date("2030-01-01T10:00:00Z");
    await recordsOf(() => updateGate(admin, 3, { title: "Three", description: "d", opensAt }));
    const { record: gate } = await oneRecord("gate.changed", () => updateGate(admin, 3, { title: "Three", description: "d", opensAt: new Date("2030-01-01T11:00:00Z") }));
    expect(gate).toMatchObject({ subjectId: 3, before: { gate: 3, opensAt: "2030-01-01T10:00:00.000Z" }, after: { gate: 3, opensAt: "2030-01-01T11:00:00.000Z" } });
    await noRecord(() => updateGate(admin, 3, { title: "Three", description: "d", opensAt: new Date("2030-01-01T11:00:00Z") }), "unchanged");
    // The Arabic beside the English is recorded once there is some.
    const arabic = { title: "Three", description: "d", titleAr: "الثالثة", descriptionAr: "ب", opensAt: new Date("2030-01-01T11:00:00Z") };
    const { record: inArabic } = await oneRecord("gate.changed", () => updateGate(admin, 3, arabic));
    expect(inArabic).toMatchObject({ before: { titleAr: null, descriptionAr: null }, after: { titleAr: "الثالثة", descriptionAr: "ب" } });
    await noRecord(() => updateGate(admin, 3, arabic), "unchanged");

    const finalAt = new Date("2031-05-05T12:00:00Z");
    const { record: final } = await oneRecord("event.final", () => updateFinalAt(admin, finalAt));
    expect(final.after).toEqual({ finalAt: finalAt.toISOString() });
    await noRecord(() => updateFinalAt(admin, finalAt), "unchanged");
    await oneRecord("event.submissions-close", () => updateSubmissionsCloseAt(admin, new Date("2031-05-05T11:00:00Z")));
    await oneRecord("event.submissions-close", () => updateSubmissionsCloseAt(admin, null));
    const { record: judging } = await oneRecord("event.judging", () => updateJudgingSettings(admin, { judgesPerSubmission: 2, blind: true }));
    expect(judging).toMatchObject({ before: { judgesPerSubmission: null, blind: false }, after: { judgesPerSubmission: 2, blind: true } });
    await oneRecord("event.judging", () => updateJudgingSettings(admin, { judgesPerSubmission: null, blind: false }));
    const { record: feedback } = await oneRecord("event.feedback", () => updateFeedbackGates(admin, [2, 1]));
    expect(feedback).toMatchObject({ before: { gates: [] }, after: { gates: [1, 2] } });
    await noRecord(() => updateFeedbackGates(admin, [1, 2]), "unchanged");
    const { record: withdrawn } = await oneRecord("event.feedback", () => updateFeedbackGates(admin, []));
    expect(withdrawn).toMatchObject({ before: { gates: [1, 2] }, after: { gates: [] } });

    const { record: cap } = await oneRecord("event.team-cap", () => updateTeamSizeCap(admin, 4));
    expect(cap).toMatchObject({ before: { teamSizeCap: 5 }, after: { teamSizeCap: 4 } });
    await noRecord(() => updateTeamSizeCap(admin, 4), "unchanged");
    await oneRecord("event.team-cap", () => updateTeamSizeCap(admin, 5));
    const { record: flags } = await oneRecord("event.flags", () => updateFlagWrongPerMinute(admin, 8));
    expect(flags).toMatchObject({ before: { flagWrongPerMinute: 5 }, after: { flagWrongPerMinute: 8 } });
    await noRecord(() => updateFlagWrongPerMinute(admin, 8), "unchanged");
    await oneRecord("event.flags", () => updateFlagWrongPerMinute(admin, 5));
    const { record: divisions } = await oneRecord("event.divisions", () => updateDivisions(admin, ["Student", "Open"]));
    expect(divisions).toMatchObject({ before: { divisions: [] }, after: { divisions: ["Student", "Open"] } });
    await noRecord(() => updateDivisions(admin, ["Student", "Open"]), "unchanged");

    await oneRecord("scoreboard.frozen", () => setScoreboardFrozen(admin, true));
    await oneRecord("scoreboard.unfrozen", () => setScoreboardFrozen(admin, false));
    await noRecord(() => setScoreboardFrozen(admin, false), "unchanged");
  });
});

describe("teams, users, sessions, tokens, imports", () => {
  it("teams: created, renamed, deleted; a taken name or a team with members records nothing", async () => {
    const { result: team } = await oneRecord("team.created", () => createTeam(admin, `Audit Team ${process.pid}`));
    await noRecord(() => createTeam(admin, `audit team ${process.pid}`));
    const { record } = await oneRecord("team.renamed", () => renameTeam(admin, team.id, `Audit Team ${process.pid} II`));
    expect(record).toMatchObject({ teamId: team.id, before: { name: `Audit Team ${process.pid}` }, after: { name: `Audit Team ${process.pid} II` } });
    await makeUser("participant", team.id);
    await noRecord(() => deleteTeam(admin, team.id));
    const empty = await makeTeam();
    await oneRecord("team.deleted", () => deleteTeam(admin, empty.id));
  });

  it("a team's division: set, changed with a rename (a record each), left; an unknown one, or removing a division in use, records nothing", async () => {
    await recordsOf(() => updateDivisions(admin, ["Student", "Open"]));
    const team = await makeTeam();
    const { record } = await oneRecord("team.division", () => setTeamDivision(admin, team.id, "open"));
    expect(record).toMatchObject({ teamId: team.id, subjectId: team.id, before: { division: null }, after: { division: "Open" } });
    await noRecord(() => setTeamDivision(admin, team.id, "Open"), "unchanged");
    await noRecord(() => setTeamDivision(admin, team.id, "Nowhere"));
    await noRecord(() => updateDivisions(admin, ["Student"]));
    const { records } = await recordsOf(() => updateTeam(admin, team.id, { name: `${team.name} moved`, division: "Student" }));
    expect(records.map((row) => [row.kind, row.after])).toEqual([
      ["team.renamed", { name: `${team.name} moved` }],
      ["team.division", { division: "Student" }],
    ]);
    await oneRecord("team.division", () => setTeamDivision(admin, team.id, null));
  });

  it("users: created, changed (a new password is a flag, never the password or its hash), deleted", async () => {
    const team = await makeTeam();
    const { result: user } = await oneRecord("user.created", () => createUser(admin, { name: `audited-${process.pid}`, role: "participant", teamId: team.id, password: "a-first-password" }));
    await startSession(user.id, { ip: "10.0.0.1", userAgent: "test" });
    const { record } = await oneRecord("user.updated", () => updateUser(admin, { id: user.id, name: `audited-${process.pid}`, role: "participant", teamId: team.id, password: "a-second-password" }));
    expect(record).toMatchObject({ userId: user.id, teamId: team.id, after: { passwordChanged: true, sessionsEnded: 1 } });
    const [hash] = await getDb().select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    const text = JSON.stringify(await getDb().select().from(auditLog).where(eq(auditLog.userId, user.id)));
    for (const secret of ["a-first-password", "a-second-password", hash.hash, "$argon2"]) expect(text).not.toContain(secret);
    // Saving the same values changes nothing: no record.
    await noRecord(() => updateUser(admin, { id: user.id, name: `audited-${process.pid}`, role: "participant", teamId: team.id }), "unchanged");
    await noRecord(() => updateUser(admin, { id: admin.id, name: adminUser.name, role: "judge" }));
    await oneRecord("user.deleted", () => deleteUser(admin, user.id));
    await noRecord(() => deleteUser(admin, user.id));
  });

  it("a set-password link an admin mails again: one record, the address it goes to", async () => {
    const user = await makeUser("participant");
    await getDb().update(users).set({ email: `again-${process.pid}@example.org` }).where(eq(users.id, user.id));
    const { record } = await oneRecord("mail.link-sent", () => sendSetPasswordLink(admin, user.id));
    expect(record).toMatchObject({ userId: user.id, after: { to: `again-${process.pid}@example.org` } });
  });

  it("sessions ended by an admin: all of a user's, or one", async () => {
    const user = await makeUser("participant");
    await startSession(user.id, { ip: null, userAgent: null });
    const { record } = await oneRecord("session.ended", () => endUserSessions(admin, user.id));
    expect(record).toMatchObject({ userId: user.id, after: { sessionsEnded: 1 } });
    await noRecord(() => endUserSessions(admin, user.id), "unchanged");
    await startSession(user.id, { ip: null, userAgent: null });
    const [{ id: sessionId }] = await getDb().execute<{ id: number }>(sql`select id from sessions where user_id = ${user.id}`);
    await oneRecord("session.ended", () => endUserSession(admin, user.id, Number(sessionId)));
    await noRecord(() => endUserSession(admin, user.id, Number(sessionId)));
  });

  it("tokens: created and revoked once; the token itself is never recorded", async () => {
    const user = await makeUser("judge");
    const { result: token, record } = await oneRecord("token.created", () => createApiToken(admin, user.id, "scoreboard screen"));
    expect(JSON.stringify(record)).not.toContain(token.token);
    await oneRecord("token.revoked", () => revokeApiToken(admin, token.id));
    await noRecord(() => revokeApiToken(admin, token.id), "unchanged");
  });

  it("an accounts import is one record; accounts made from registrations are one record each", async () => {
    const name = `imported-${process.pid}`;
    const { record } = await oneRecord("import.accounts", () => importAccounts(admin, `name,role,team,password\n${name},participant,Imported Team ${process.pid},long-enough-pass\n`));
    expect(record.after).toMatchObject({ created: 1, teamsCreated: [`Imported Team ${process.pid}`] });
    expect(JSON.stringify(record)).not.toContain("long-enough-pass");
    await noRecord(() => importAccounts(admin, `name,role,team,password\n${name},participant,,long-enough-pass\n`), "unchanged");

    const [{ id }] = await getDb()
      .insert(registrations)
      .values({ name: "Lina", lastName: "Haddad", email: `lina-${process.pid}@example.org`, phone: "0555000000", nationalId: "1", skill: "AI", tshirtSize: "M", hasTeam: true, teamName: `Registered ${process.pid}` })
      .returning({ id: registrations.id });
    const { records } = await recordsOf(() => createAccountsFromRegistrations(admin, [Number(id)]));
    expect(records.map((row) => row.kind)).toEqual(["team.created", "user.created"]);
    const [team] = await getDb().select({ id: teams.id }).from(teams).where(eq(teams.name, `Registered ${process.pid}`));
    expect(records[1]).toMatchObject({ teamId: team.id, after: { registrationId: Number(id) } });
  });
});

describe("what every team reads", () => {
  it("announcements, notifications, the home videos and the meals", async () => {
    const { record: posted } = await oneRecord("announcement.created", () => createAnnouncement(admin, { title: "Gate 3 opens early", content: "At 17:00." }));
    expect(posted.after).toMatchObject({ title: "Gate 3 opens early", content: "At 17:00." });
    await oneRecord("notification.sent", () => sendNotification(admin, "Dinner is served"));
    // The Arabic beside the English, as posted.
    const { record: bilingual } = await oneRecord("announcement.created", () => createAnnouncement(admin, { title: "Lunch", content: "Now.", titleAr: "الغداء", contentAr: "الآن." }));
    expect(bilingual.after).toMatchObject({ title: "Lunch", titleAr: "الغداء", contentAr: "الآن." });
    const { record: notified } = await oneRecord("notification.sent", () => sendNotification(admin, "Doors close", "تُغلق الأبواب"));
    expect(notified.after).toEqual({ message: "Doors close", messageAr: "تُغلق الأبواب" });
    await oneRecord("videos.changed", () => updateVideos(admin, { video1: `https://videos.example/${process.pid}` }));
    await noRecord(() => updateVideos(admin, { video1: `https://videos.example/${process.pid}` }), "unchanged");
    await oneRecord("meal.added", () => addMeal(admin, "Breakfast", new Date("2031-05-05T07:00:00Z")));
    const [{ id: mealId }] = await getDb().execute<{ id: number }>(sql`select id from meals where label = 'Breakfast' order by id desc limit 1`);
    await oneRecord("meal.removed", () => removeMeal(admin, Number(mealId)));
    await noRecord(() => removeMeal(admin, Number(mealId)), "unchanged");
  });
});

/** Kinds each made and counted in their own module's test, as awards' are. */
const COVERED_ELSEWHERE: Record<string, string> = {
  "award.": "tests/integration/awards.test.ts",
  "predictions.": "tests/integration/predictions.test.ts",
  "code.checker": "tests/integration/code-checker.test.ts",
  "code.": "tests/integration/code-challenges.test.ts",
  "signal.": "tests/integration/integrity-signals.test.ts",
  "team.joined": "tests/integration/self-formed-teams.test.ts",
  "team.left": "tests/integration/self-formed-teams.test.ts",
  "team.member-removed": "tests/integration/self-formed-teams.test.ts",
  "team.invite-created": "tests/integration/self-formed-teams.test.ts",
  "team.invite-revoked": "tests/integration/self-formed-teams.test.ts",
  "event.team-formation": "tests/integration/self-formed-teams.test.ts",
  "event.participant-passwords": "tests/integration/participant-passwords.test.ts",
  "user.password-changed": "tests/integration/mail-extras.test.ts",
  "user.password-set": "tests/integration/mail-extras.test.ts",
  "user.identity-bound": "tests/integration/oidc-sign-in.test.ts",
  "user.address-confirmed": "tests/integration/participant-passwords.test.ts",
};

describe("coverage", () => {
  it("every kind of record was made above, or in its module's own test (COVERED_ELSEWHERE)", () => {
    const missing = auditKindList.filter((kind) => !Object.keys(COVERED_ELSEWHERE).some((prefix) => kind.startsWith(prefix)) && !covered.has(kind));
    expect(missing).toEqual([]);
  });
});
