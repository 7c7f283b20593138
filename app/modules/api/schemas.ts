/**
 * What the API answers, as zod schemas: the routes send their bodies through them (unknown keys
 * are dropped, so a column added to a query never leaks) and the OpenAPI document is generated from
 * them. Request bodies use the screens' own schemas (app/modules/<domain>/schema.ts).
 */
import { z } from "zod";
import type { SessionUser } from "../auth/login.server.ts";
import { messages } from "../messages.ts";
import type { OwnSubmission } from "../participant/board.server.ts";
import { fromCenti } from "../scoring/rules.ts";
import { userRoles } from "../users/schema.ts";

const id = z.number().int().positive();
// Modules give instants as Date objects or ISO strings; JSON carries both as the same ISO string.
const instant = z
  .union([z.date(), z.iso.datetime()])
  .meta({
    description: "An instant, ISO 8601 in UTC",
    override: ({ jsonSchema }) => {
      delete jsonSchema.anyOf;
      Object.assign(jsonSchema, { type: "string", format: "date-time" });
    },
  });
const category = z.enum(["AI", "CS", "PS", "GD"]);
const checking = z.enum(["judges", "flag", "metric", "tests"]).meta({
  description:
    "judges: a file and/or a text, scored by judges; flag: a typed answer checked at once (POST /challenges/{id}/flag); metric: a predictions file scored against hidden labels (its page: /predictions/{id}); tests: a program run against hidden tests",
});
const submissionStatus = z.enum(["pending", "approved", "rejected", "reviewed"]);
const points = z.number().meta({ description: "Points, up to 2 decimals" });
/** The Arabic beside an English text (docs/domain.md "Event content in two languages"). */
const arabic = (of: string) => z.string().nullable().meta({ description: `The ${of} in Arabic; null: none (an Arabic reader reads the English)` });

export const MeSchema = z
  .object({
    user: z.object({ id, name: z.string() }),
    role: z.enum(userRoles),
    team: z.object({ id, name: z.string() }).nullable(),
  })
  .meta({ id: "Me", description: "The caller: the original platform's login answer (role, team, user)" });

/** The original platform's login answer for a user. */
export function meOf(user: SessionUser): z.input<typeof MeSchema> {
  return {
    user: { id: user.id, name: user.name },
    role: user.role,
    team: user.teamId !== null && user.teamName !== null ? { id: user.teamId, name: user.teamName } : null,
  };
}

export const VideosOutSchema = z.object({ video1: z.string().nullable(), video2: z.string().nullable() }).meta({ id: "Videos" });

export const AnnouncementOutSchema = z
  .object({ id, title: z.string(), content: z.string(), titleAr: arabic("title"), contentAr: arabic("content"), createdAt: instant })
  .meta({ id: "Announcement" });

export const UserOutSchema = z
  .object({
    id,
    name: z.string(),
    email: z.string().nullable().meta({ description: "The user's address (unique without regard to case), or null" }),
    language: z.enum(["en", "ar"]).meta({ description: "The language of the user's mail" }),
    role: z.enum(userRoles),
    teamId: id.nullable(),
    team: z.string().nullable(),
  })
  .meta({ id: "User", description: "A user; the password is never sent back" });

export const SessionOutSchema = z
  .object({ id, createdAt: instant, lastUsedAt: instant, ip: z.string().nullable(), userAgent: z.string().nullable() })
  .meta({ id: "Session", description: "A live sign-in session (the token itself is never shown)" });

const teamDivision = z.string().nullable().meta({ description: "One of the event's divisions, or null: on the overall board only" });

export const TeamOutSchema = z
  .object({ id, name: z.string(), division: teamDivision, members: z.number().int(), submissions: z.number().int() })
  .meta({ id: "Team" });

export const TeamRefSchema = z.object({ id, name: z.string(), division: teamDivision }).meta({ id: "TeamRef" });

// A flag challenge's limits and how many answers it accepts; its answers themselves are never sent, to anyone.
const flagLimits = {
  wrongPerMinute: z.number().int().nullable().meta({ description: "A flag challenge's wrong answers a minute before a wait; null: the event's setting" }),
  maxAttempts: z.number().int().nullable().meta({ description: "A flag challenge's most wrong answers; null: no limit" }),
};
const answerCount = z.number().int().meta({ description: "How many answers a flag challenge accepts (the answers are never sent)" });
// A flag challenge's points' curve and a challenge's release (docs/domain.md "Dynamic points", "Gates and challenges").
const curve = {
  scoring: z.enum(["static", "dynamic"]).meta({ description: "static: `points`; dynamic (flag challenges): from `points` down to `minimumPoints` at `decay` solves" }),
  minimumPoints: z.number().int().nullable().meta({ description: "A dynamic challenge's lowest value; null when static" }),
  decay: z.number().int().nullable().meta({ description: "The solves at which a dynamic challenge's value reaches its minimum; null when static" }),
  releaseAfterMinutes: z.number().int().nullable().meta({ description: "Opens this many minutes after its gate; null: with it" }),
};
const prerequisites = z.array(id).meta({ description: "The challenges a team must solve first (admins only)" });
const AdminPaidHintSchema = z
  .object({ number: z.number().int().meta({ description: "Its place in the list, from 1" }), cost: points, text: z.string() })
  .meta({ id: "AdminPaidHint", description: "A hint that costs points, as admins read it (its text included)" });
const TeamPaidHintSchema = z
  .object({
    number: z.number().int().meta({ description: "Its place in the list, from 1: unlock it with POST /challenges/{id}/hints/{number}/unlock" }),
    cost: points,
    unlocked: z.boolean().meta({ description: "Unlocked by the caller's team" }),
    text: z.string().nullable().meta({ description: "Null until the caller's team unlocked it" }),
  })
  .meta({ id: "PaidHint", description: "A hint that costs points, as a team reads it" });

export const ChallengeListItemSchema = z
  .object({
    id,
    title: z.string(),
    titleAr: arabic("title"),
    category,
    wave: z.number().int().nullable().meta({ description: "The gate; null for a draft" }),
    points: z.number().int(),
    status: z.enum(["active", "inactive"]),
    difficulty: z.enum(["Easy", "Medium", "Hard"]).nullable(),
    attachmentName: z.string().nullable(),
    submissions: z.number().int(),
    checking,
    ...flagLimits,
    answerCount,
    ...curve,
    prerequisites,
    paidHints: z.array(AdminPaidHintSchema),
  })
  .meta({ id: "ChallengeListItem" });

export const ChallengeOutSchema = z
  .object({
    id,
    title: z.string(),
    description: z.string(),
    titleAr: arabic("title"),
    descriptionAr: arabic("description"),
    points: z.number().int(),
    category,
    difficulty: z.enum(["Easy", "Medium", "Hard"]).nullable(),
    hints: z.string().nullable(),
    wave: z.number().int().nullable(),
    status: z.enum(["active", "inactive"]),
    attachmentName: z.string().nullable().meta({ description: "Download it from /api/v1/challenges/{id}/attachment" }),
    checking,
    ...flagLimits,
    answerCount: answerCount.optional().meta({ description: "Admins only: how many answers a flag challenge accepts (the answers are never sent)" }),
    ...curve,
    prerequisites: prerequisites.optional(),
    paidHints: z
      .array(z.union([TeamPaidHintSchema, AdminPaidHintSchema]))
      .meta({ description: "Hints that cost points: admins read each one's text; others each one's cost, and its text only once their team unlocked it" }),
    solved: z.boolean().optional().meta({ description: "A flag challenge, read by a participant: solved by their team" }),
    attemptsLeft: z
      .number()
      .int()
      .nullable()
      .optional()
      .meta({ description: "A flag challenge, read by a participant: wrong answers their team may still send (null: no maximum)" }),
  })
  .meta({ id: "Challenge" });

export const FlagVerdictSchema = z
  .discriminatedUnion("verdict", [
    z.object({
      verdict: z.literal("correct"),
      points: z.number().int().meta({ description: "The challenge's points, now the team's" }),
      solvedAt: instant,
      message: z.string(),
    }),
    z.object({
      verdict: z.literal("incorrect"),
      attemptsLeft: z.number().int().nullable().meta({ description: "Wrong answers the team may still send (null: no maximum)" }),
      waitSeconds: z.number().int().meta({ description: "Seconds before the team's next answer is taken (0: at once)" }),
      message: z.string(),
    }),
  ])
  .meta({ id: "FlagVerdict", description: "A flag answer's verdict; a refusal is an Error (409 solved already, 429 wait with Retry-After…)" });

export const HintUnlockOutSchema = z
  .object({
    number: z.number().int(),
    cost: points.meta({ description: "What the hint costs (what the team paid, if this unlock charged it)" }),
    charged: z.boolean().meta({ description: "This call charged the team (false: unlocked before, nothing more taken)" }),
    text: z.string(),
  })
  .meta({ id: "HintUnlock", description: "A hint that costs points, unlocked for the caller's team" });

export const ChallengeStatusOutSchema = z.object({ id, title: z.string(), status: z.enum(["active", "inactive"]) }).meta({ id: "ChallengeStatus" });

const gate = z.object({
  number: z.number().int().min(1).max(5),
  title: z.string(),
  description: z.string(),
  titleAr: arabic("title"),
  descriptionAr: arabic("description"),
  opensAt: instant,
  open: z.boolean().meta({ description: "Opened by server time" }),
});

export const GateOutSchema = gate.meta({ id: "Gate" });

export const GateBoardSchema = z
  .object({
    gate,
    challenges: z
      .array(
        z.object({
          id,
          title: z.string(),
          titleAr: arabic("title"),
          category: z.string().meta({ description: "AI, CS, PS or GD" }),
          points: z.number().int(),
          difficulty: z.string().nullable(),
          checking,
          solved: z.boolean().meta({ description: "Solved by the caller's team" }),
        }),
      )
      .nullable()
      .meta({ description: "Active challenges; null while the gate is closed" }),
    solvedPercent: z.number(),
    submissions: z
      .object({
        closesAt: instant.nullable().meta({ description: "When the event stops taking answers: the submissions-close setting, else the final countdown" }),
        open: z.boolean().meta({ description: "A submission begun now is accepted (gate and challenge rules aside)" }),
      })
      .meta({ description: "The event's submission deadline" }),
  })
  .meta({ id: "GateBoard" });

const submissionFields = {
  id,
  teamId: id,
  challengeId: id,
  team: z.string(),
  user: z.string().nullable().meta({ description: "The user credited; null once deleted" }),
  challenge: z.string(),
  category,
  wave: z.number().int().nullable(),
  points: z.number().int().meta({ description: "The challenge's points" }),
  status: submissionStatus,
  text: z.string().nullable(),
  fileName: z.string().nullable().meta({ description: "Download it from /api/v1/submissions/{id}/file" }),
  score: points.nullable().meta({ description: "The judges' mean; null until scored" }),
  createdAt: instant,
  updatedAt: instant,
};

/** A listed submission with its score in points (stored in hundredths, decision 003). */
export function withScore<Row extends { scoreCenti: number | null }>(row: Row): Row & { score: number | null } {
  return { ...row, score: row.scoreCenti === null ? null : fromCenti(row.scoreCenti) };
}

export const TeamSubmissionSchema = z.object(submissionFields).meta({ id: "TeamSubmission" });

export const SubmissionOutSchema = z
  .object({
    ...submissionFields,
    teamId: id.nullable().meta({ description: "Null for a judge while judging is blind (the team is its label in `team`)" }),
    judgeScores: z.array(z.object({ judgeId: id.nullable(), judge: z.string(), score: points, comment: z.string().nullable() })),
  })
  .meta({ id: "Submission", description: "A submission as the judging table shows it" });

export const FeedbackSchema = z
  .object({
    score: points.nullable().meta({ description: "The submission's score (the judges' mean); null until scored" }),
    points: z.number().int().meta({ description: "The challenge's points" }),
    rejected: z.boolean().meta({ description: "Rejected by a judge: counts 0" }),
    criteria: z
      .array(z.object({ name: z.string(), maxPoints: z.number().int(), score: points.nullable().meta({ description: "The judges' mean on this criterion" }) }))
      .meta({ description: "The rubric, in order; empty without one" }),
    judges: z
      .array(
        z.object({
          judge: z.string().meta({ description: '"Judge 1", "Judge 2"…, in the order the scores were given: never who' }),
          score: points,
          comment: z.string().nullable(),
          earlierVersion: z.boolean().meta({ description: "Given to an earlier version of the answer; counts until re-scored" }),
        }),
      ),
  })
  .meta({ id: "Feedback", description: "Judging feedback, once an admin publishes the challenge's gate's" });

export const OwnSubmissionSchema = z
  .object({
    id,
    text: z.string().nullable(),
    fileName: z.string().nullable(),
    hasFile: z.boolean(),
    status: z.string().meta({ description: "pending, approved, rejected or reviewed" }),
    feedback: FeedbackSchema.nullable().meta({ description: "Null until an admin publishes the feedback of the challenge's gate" }),
  })
  .meta({ id: "OwnSubmission" });

/** A team's submission with its feedback in points (stored in hundredths, decision 003). */
export function ownSubmissionOut(submission: OwnSubmission): z.input<typeof OwnSubmissionSchema> {
  const { feedback } = submission;
  return {
    ...submission,
    feedback: feedback && {
      score: feedback.meanCenti === null ? null : fromCenti(feedback.meanCenti),
      points: feedback.points,
      rejected: feedback.rejected,
      criteria: feedback.criteria.map((criterion) => ({
        name: criterion.name,
        maxPoints: criterion.maxPoints,
        score: criterion.meanCenti === null ? null : fromCenti(criterion.meanCenti),
      })),
      judges: feedback.judges.map((judge) => ({
        judge: messages.participant.feedbackJudge(judge.number),
        score: fromCenti(judge.scoreCenti),
        comment: judge.comment,
        earlierVersion: judge.earlierVersion,
      })),
    },
  };
}

export const SubmitResultSchema = z
  .object({ submissionId: id, created: z.boolean(), message: z.string() })
  .meta({ id: "SubmitResult", description: "created: the first submission of the team to this challenge (201); false: an update (200)" });

export const CategoryScoresSchema = z
  .object({ AI: z.array(points), CS: z.array(points), PS: z.array(points), GD: z.array(points) })
  .meta({ id: "CategoryScores", description: "One score per scored submission, by category; each sum, plus the team's awards in that category (GET /teams/{id}/awards), is the team's category points" });

export const AwardOutSchema = z
  .object({
    id,
    points: z.number().meta({ description: "Points, up to 2 decimals; negative for a penalty" }),
    category: z.enum(["AI", "CS", "PS", "GD"]).nullable().meta({ description: "The category it counts in besides the total; null: the total only" }),
    reason: z.string(),
    createdAt: instant,
  })
  .meta({ id: "Award", description: "An award an organiser gave the team, counting in its standing (revoked ones are not listed)" });

export const ScoreResultSchema = z
  .object({ submissionId: id, teamId: id.nullable().meta({ description: "Null for a judge while judging is blind" }), score: points.nullable(), status: submissionStatus })
  .meta({ id: "ScoreResult" });

export const NotificationOutSchema = z.object({ id, message: z.string(), messageAr: arabic("message"), timestamp: instant }).meta({ id: "Notification" });

export const RequestOutSchema = z
  .object({ id, kind: z.enum(["mentor", "needs", "question"]), message: z.string(), team: z.string().nullable(), user: z.string().nullable(), createdAt: instant })
  .meta({ id: "Request", description: "A mentor call or a need" });

export const TeamStandingSchema = z
  .object({
    id,
    name: z.string(),
    rank: z.number().int().positive(),
    totalScore: points,
    categories: z.object({ AI: points, CS: points, PS: points, GD: points }),
    solvedCount: z.number().int(),
    reachedAt: instant.meta({ description: "When the team reached its total: ties go to the earlier" }),
    division: teamDivision,
  })
  .meta({ id: "TeamStanding", description: "On a division's board, `rank` is the team's place within the division" });

export const ScoreboardSchema = z
  .object({
    frozen: z.boolean().meta({ description: "Frozen: participants see the board as it stood, except their own team's live points" }),
    ownTeamId: id.nullable(),
    teams: z.array(TeamStandingSchema),
    division: z.string().nullable().meta({ description: "The division whose board this is (ranks 1..n within it); null: every team" }),
    divisions: z.array(z.string()).meta({ description: "The event's divisions, in the order the scoreboard's filter lists them" }),
    total: z.number().int().optional().meta({ description: "Asked with `limit` or `offset` only: how many teams the whole board has" }),
    offset: z.number().int().optional().meta({ description: "Asked with `limit` or `offset` only: the position of the first team given (0: the top)" }),
    limit: z.number().int().nullable().optional().meta({ description: "Asked with `limit` or `offset` only: the `limit` asked (null: to the end)" }),
  })
  .meta({ id: "Scoreboard" });

const auditValues = z
  .record(z.string(), z.unknown())
  .nullable()
  .meta({ description: "The fields the record keeps, as they were (before) or became (after); null for a row created (before) or deleted (after)" });

export const AuditRecordOutSchema = z
  .object({
    id,
    at: instant.meta({ description: "When the change was committed (server time), to the millisecond" }),
    kind: z.string().meta({ description: "What changed, e.g. score.changed (the list: the page's kind filter, or the OpenAPI parameter kind)" }),
    kindLabel: z.string(),
    actor: z.object({
      id: id.nullable().meta({ description: "null for the system (the seed, scripts)" }),
      name: z.string().nullable().meta({ description: "Their name when they acted" }),
      role: z.enum(userRoles).nullable(),
      via: z.enum(["session", "token", "system", "link"]),
      sessionId: id.nullable(),
      tokenId: id.nullable(),
      ip: z.string().nullable(),
    }),
    team: z.object({ id, name: z.string().nullable().meta({ description: "Its current name; null once deleted" }) }).nullable(),
    user: z
      .object({ id, name: z.string().nullable().meta({ description: "Their current name; null once deleted" }) })
      .nullable()
      .meta({ description: "The user the change is about, if one (not the actor)" }),
    subjectId: z.number().int().nullable().meta({ description: "The row changed (a submission's, challenge's… id, as the kind says)" }),
    subject: z.string().meta({ description: "The row changed, in words: Submission #42" }),
    before: auditValues,
    after: auditValues,
  })
  .meta({ id: "AuditRecord", description: "One change of the audit trail (docs/domain.md)" });

export const AuditPageOutSchema = z
  .object({
    records: z.array(AuditRecordOutSchema).meta({ description: "Newest first" }),
    older: z.string().nullable().meta({ description: "Pass as `before` for the next (older) page; null at the oldest" }),
    newer: z.string().nullable().meta({ description: "Pass as `after` for the page just newer; null on the newest page" }),
  })
  .meta({ id: "AuditPage" });

// Code challenges (docs/domain.md "Code challenges"): a run as the team's page shows it; staff also read its team and
// the platform's failures, as the dashboard's page shows them. Never a test's input or expected output.
const centiPoints = (description: string) => z.number().nullable().meta({ description });
const RunTestSchema = z.object({
  subtask: z.string(),
  test: z.string().meta({ description: "The test's place in its subtask (1, 2, …); admins and judges read its file's name" }),
  verdict: z.string(),
  timeMs: z.number(),
  memoryBytes: z.number(),
});

export const CodeRunOutSchema = z
  .object({
    id,
    challengeId: id,
    language: z.string(),
    state: z.enum(["queued", "compiling", "running", "done"]),
    verdict: z.enum(["accepted", "wrong-answer", "time-limit", "memory-limit", "runtime-error", "compilation-error", "output-limit"]).nullable().meta({ description: "Null until judged" }),
    tests: z.array(RunTestSchema).meta({ description: "Each test's verdict, time and memory (in a list, the newest 20 runs only)" }),
    passedSubtasks: z.array(z.string()),
    points: centiPoints("The points this run earns (IOI style: the subtasks it passed); null until judged"),
    compileMessage: z.string().nullable(),
    testIndex: z.number().int().nullable().meta({ description: "While running: the test being run" }),
    testCount: z.number().int().nullable(),
    createdAt: instant,
    finishedAt: instant.nullable(),
    team: z.object({ id, name: z.string() }).optional().meta({ description: "Admins and judges only: the team that sent it" }),
    failures: z.number().int().optional().meta({ description: "Admins and judges only: how often judging failed (the platform's fault)" }),
    failure: z.string().nullable().optional().meta({ description: "Admins and judges only: the last failure" }),
  })
  .meta({ id: "CodeRun", description: "A program sent to a code challenge and its judgement" });

/** A run as the code pages' readers give it (app/modules/code/runs.server.ts), in the API's words. */
export function runOut<Run extends { pointsCenti: number | null; teamId?: number; teamName?: string }>(run: Run, challengeId: number) {
  const team = run.teamId !== undefined && run.teamName !== undefined ? { team: { id: run.teamId, name: run.teamName } } : {};
  return { ...run, challengeId, points: run.pointsCenti === null ? null : fromCenti(run.pointsCenti), ...team };
}

export const CodeRunsOutSchema = z
  .object({
    points: centiPoints("The caller's team's points for the challenge (its best subtasks over every run); null for admins and judges"),
    languages: z.array(z.string()).meta({ description: "The languages the challenge takes (a program's `language`)" }),
    runs: z.array(CodeRunOutSchema).meta({ description: "Newest first: a participant's team's (100 at most); every team's for admins and judges, 25 a page (`page`, `failing`)" }),
    pages: z
      .object({ page: z.number().int(), pages: z.number().int(), total: z.number().int() })
      .optional()
      .meta({ description: "Admins and judges: the page shown, how many there are, and how many runs the list holds" }),
  })
  .meta({ id: "CodeRuns" });

export const RunSentSchema = z.object({ run: CodeRunOutSchema, message: z.string() }).meta({ id: "RunSent", description: "The run, queued for a runner" });

export const RejudgedSchema = z
  .object({ runs: z.number().int().meta({ description: "How many judged runs were queued again" }), message: z.string() })
  .meta({ id: "Rejudged" });

// Prediction challenges (docs/domain.md "Prediction challenges"): a team's files; the private score stays null until
// the reveal.
const FaultSchema = z.object({ code: z.string(), line: z.number().int(), value: z.string().optional(), other: z.number().int().optional() });

export const PredictionFileOutSchema = z
  .object({
    id,
    fileName: z.string(),
    fileSize: z.number().int(),
    status: z.enum(["queued", "scored", "failed"]),
    createdAt: instant,
    scoredAt: instant.nullable(),
    publicScore: z.number().nullable().meta({ description: "The metric on the public rows" }),
    publicPoints: centiPoints("The points the public score earns"),
    privateScore: z.number().nullable().meta({ description: "The metric on the private rows: null until the private scores are revealed" }),
    privatePoints: centiPoints("Null until the private scores are revealed"),
    faults: z.object({ first: z.array(FaultSchema), count: z.number().int() }).nullable().meta({ description: "Why a failed file was refused (its first faults, by line)" }),
    chosen: z.boolean().meta({ description: "The team chose this file to count" }),
    counts: z.boolean().meta({ description: "This file counts for the team (the chosen one, else the latest scored one)" }),
  })
  .meta({ id: "PredictionFile" });

/** A team's file as the predictions page's reader gives it (app/modules/predictions/predictions.server.ts), in the API's words. */
export function predictionFileOut<File extends { publicCenti: number | null; privateCenti: number | null }>(file: File) {
  return { ...file, publicPoints: file.publicCenti === null ? null : fromCenti(file.publicCenti), privatePoints: file.privateCenti === null ? null : fromCenti(file.privateCenti) };
}

export const PredictionFilesOutSchema = z
  .object({
    revealed: z.boolean(),
    sentToday: z.number().int().meta({ description: "The team's files today (the event's days)" }),
    dailyLimit: z.number().int().nullable(),
    files: z.array(PredictionFileOutSchema).meta({ description: "Newest first" }),
  })
  .meta({ id: "PredictionFiles" });

export const PredictionSentSchema = z.object({ submissionId: id, message: z.string() }).meta({ id: "PredictionSent", description: "The file, queued to be scored" });

export const MessageOutSchema = z.object({ message: z.string() }).meta({ id: "Message" });
