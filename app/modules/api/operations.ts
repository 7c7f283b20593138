/**
 * The catalogue of /api/v1 calls: path, method, who may call it, the original platform's call it serves, and its
 * request and response schemas. The OpenAPI document (openapi.server.ts), the docs page and the
 * role tests are all generated from it; tests/integration/api-openapi.test.ts checks it against
 * the route files, both ways.
 */
import { z } from "zod";
import { rowId } from "../ids.ts";
import { AnnouncementSchema } from "../announcements/schema.ts";
import { AuditQuerySchema } from "../audit/schema.ts";
import type { Role } from "../auth/access.ts";
import { ApiLoginSchema } from "../auth/login-schema.ts";
import { ChallengeApiSchema, ChallengeCreateSchema, ChallengeStatusSchema } from "../challenges/schema.ts";
import { ProgramSchema, RejudgeSchema, RunListQuerySchema } from "../code/schema.ts";
import { FlagAnswerSchema } from "../flags/schema.ts";
import { MAX_PAID_HINTS } from "../flags/paid-hints.ts";
import { NotificationSchema } from "../notifications/schema.ts";
import { ChoiceSchema } from "../predictions/schema.ts";
import { RequestSchema } from "../requests/schema.ts";
import { ScoreFormSchema } from "../scoring/score-input.ts";
import { feedQuerySchema } from "../standings/feed-query.ts";
import { SubmissionFormSchema, SubmissionListQuerySchema } from "../submissions/schema.ts";
import { TeamCreateSchema, TeamDivisionSchema, TeamNameSchema } from "../teams/schema.ts";
import { UserCreateSchema, UserEditSchema } from "../users/schema.ts";
import { DashboardVideosSchema } from "../videos/schema.ts";
import {
  AnnouncementOutSchema,
  AwardOutSchema,
  AuditPageOutSchema,
  CategoryScoresSchema,
  ChallengeListItemSchema,
  CodeRunOutSchema,
  CodeRunsOutSchema,
  ChallengeOutSchema,
  ChallengeStatusOutSchema,
  FlagVerdictSchema,
  GateBoardSchema,
  GateOutSchema,
  HintUnlockOutSchema,
  MeSchema,
  MessageOutSchema,
  NotificationOutSchema,
  OwnSubmissionSchema,
  PredictionFilesOutSchema,
  PredictionSentSchema,
  RejudgedSchema,
  RequestOutSchema,
  RunSentSchema,
  ScoreboardSchema,
  ScoreResultSchema,
  SessionOutSchema,
  SubmissionOutSchema,
  SubmitResultSchema,
  TeamOutSchema,
  TeamRefSchema,
  TeamSubmissionSchema,
  UserOutSchema,
  VideosOutSchema,
} from "./schemas.ts";

export const API_BASE = "/api/v1";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

const everyone = ["admin", "judge", "participant"] as const satisfies readonly Role[];
const staff = ["admin", "judge"] as const satisfies readonly Role[];
const admin = ["admin"] as const satisfies readonly Role[];
const participant = ["participant"] as const satisfies readonly Role[];

export interface ApiOperation {
  summary: string;
  description?: string;
  /** Who may call it: the screens' rule. "public" needs no sign-in. */
  access: readonly Role[] | "public";
  /** Participants may call it for their own team only (admins and judges for any team): the team is the path's `{id}`. */
  ownTeamOnly?: boolean;
  /** A token's remembered answer will do (a poll several times a second, the scoreboard); else looked up afresh. */
  recentCaller?: boolean;
  /** The original platform's calls this one serves (decision 009's mapping table). */
  originalCalls: string[];
  tag: string;
  path?: z.ZodObject;
  query?: z.ZodObject;
  /** The body's schema per encoding: JSON (or the same fields form-encoded), multipart with files. */
  body?: { json?: z.ZodType; multipart?: z.ZodType };
  /** Success status → description and body schema (none for 204 and redirects). */
  responses: Record<number, { description: string; schema?: z.ZodType; headers?: Record<string, string> }>;
  /** The error statuses besides 401/403 that follow from access. */
  errors?: number[];
}

const idPath = z.object({ id: rowId() });
const teamPath = z.object({ id: rowId().meta({ description: "The team's id" }) });
const wavePath = z.object({ wave: z.coerce.number().int().min(1).max(5) });
const binary = z.string().meta({ format: "binary" });

export const apiOperations: Record<string, Partial<Record<HttpMethod, ApiOperation>>> = {
  "/auth/login": {
    post: {
      summary: "Sign in with a name and password",
      description:
        "Starts a browser session (the httpOnly session cookie) and answers who signed in. Scripts should use an API token instead. Failed attempts are throttled like /login (429 with Retry-After). The original platform's `name` field is `username`.",
      access: "public",
      originalCalls: ["POST /auth/login"],
      tag: "auth",
      body: { json: ApiLoginSchema },
      responses: { 200: { description: "Signed in; Set-Cookie carries the session", schema: MeSchema } },
      errors: [400, 401, 429],
    },
  },
  "/auth/me": {
    get: {
      summary: "Who is calling",
      description: "Succeeds for a signed-in session or a valid token (the original platform's auth check).",
      access: everyone,
      originalCalls: ["GET /auth/auth-check"],
      tag: "auth",
      responses: { 200: { description: "The caller", schema: MeSchema } },
    },
  },
  "/videos": {
    get: { summary: "The two home videos", access: everyone, originalCalls: ["GET /videos"], tag: "event", responses: { 200: { description: "Video URLs", schema: VideosOutSchema } } },
    put: {
      summary: "Save the home videos",
      description: "At least one URL; a missing one keeps the stored URL.",
      access: admin,
      originalCalls: ["PUT /videos"],
      tag: "event",
      body: { json: DashboardVideosSchema },
      responses: { 200: { description: "The videos now stored", schema: VideosOutSchema } },
      errors: [400],
    },
  },
  "/announcements": {
    get: {
      summary: "Announcements, newest first",
      access: everyone,
      originalCalls: ["GET /Announcements"],
      tag: "event",
      responses: { 200: { description: "Announcements", schema: z.array(AnnouncementOutSchema) } },
    },
    post: {
      summary: "Post an announcement",
      description: "Stored and pushed live to every browser.",
      access: admin,
      originalCalls: ["POST /announcements"],
      tag: "event",
      body: { json: AnnouncementSchema },
      responses: { 201: { description: "Posted", schema: AnnouncementOutSchema } },
      errors: [400],
    },
  },
  "/notifications": {
    post: {
      summary: "Send a notification",
      description: "Stored and pushed live to every browser.",
      access: admin,
      originalCalls: ["POST /notifications/send"],
      tag: "event",
      body: { json: NotificationSchema },
      responses: { 201: { description: "Sent", schema: NotificationOutSchema } },
      errors: [400],
    },
  },
  "/users": {
    get: { summary: "Every user", access: admin, originalCalls: ["GET /users"], tag: "users", responses: { 200: { description: "Users", schema: z.array(UserOutSchema) } } },
    post: {
      summary: "Create a user",
      description:
        "A participant needs a team; admins and judges have none. Names are unique without regard to case, and so are email addresses (409). A password, or an email address: without a password, the user is mailed a link to choose one (valid `PASSWORD_LINK_HOURS`; 400 when this server sends no mail). `language` (en or ar, default en) is their mail's. A team at the team size cap (Settings) takes no one more: 409 with the message.",
      access: admin,
      originalCalls: ["POST /users"],
      tag: "users",
      body: { json: UserCreateSchema },
      responses: { 201: { description: "Created", schema: UserOutSchema } },
      errors: [400, 409],
    },
  },
  "/users/{id}": {
    patch: {
      summary: "Edit a user",
      description:
        "The user form's fields: name and role are required; a missing password keeps the current one, so do a missing email and language (`email: null` removes the address). An admin cannot demote themselves. Moving a user to a team at the team size cap is refused (409); a member stays in their team when the cap is lowered.",
      access: admin,
      originalCalls: ["PATCH /users/{id}"],
      tag: "users",
      path: idPath,
      body: { json: UserEditSchema },
      responses: { 200: { description: "Saved", schema: UserOutSchema } },
      errors: [400, 404, 409],
    },
    delete: {
      summary: "Delete a user",
      description: "Their team keeps its submissions. An admin cannot delete themselves.",
      access: admin,
      originalCalls: ["DELETE /users/{id}"],
      tag: "users",
      path: idPath,
      responses: { 204: { description: "Deleted" } },
      errors: [404, 409],
    },
  },
  "/users/{id}/sessions": {
    get: {
      summary: "A user's live sign-in sessions",
      description: "Newest use first: when each started and was last used, its IP and browser. Never the session's token.",
      access: admin,
      originalCalls: [],
      tag: "users",
      path: idPath,
      responses: { 200: { description: "Sessions", schema: z.array(SessionOutSchema) } },
      errors: [404],
    },
    delete: {
      summary: "End every session of a user",
      description: "Every web process refuses them within a second and disconnects their live connections. Their API tokens are not affected (revoke those on their own).",
      access: admin,
      originalCalls: [],
      tag: "users",
      path: idPath,
      responses: { 204: { description: "Ended" } },
      errors: [404],
    },
  },
  "/users/{id}/password-link": {
    post: {
      summary: "Mail a user a new set-password link",
      description:
        "As the Users page's button: a single-use link to choose a password, valid PASSWORD_LINK_HOURS, is mailed to the user's address by a worker (never in the answer). 409 when mail is off or the user has no address. Recorded in the audit trail (`mail.link-sent`).",
      access: admin,
      originalCalls: [],
      tag: "users",
      path: idPath,
      responses: { 202: { description: "Queued: the address it goes to", schema: z.object({ to: z.string() }) } },
      errors: [404, 409],
    },
  },
  "/users/{id}/sessions/{sessionId}": {
    delete: {
      summary: "End one session of a user",
      access: admin,
      originalCalls: [],
      tag: "users",
      path: idPath.extend({ sessionId: rowId() }),
      responses: { 204: { description: "Ended" } },
      errors: [404],
    },
  },
  "/teams": {
    get: { summary: "Every team, with its division and member and submission counts", access: admin, originalCalls: ["GET /teams"], tag: "teams", responses: { 200: { description: "Teams", schema: z.array(TeamOutSchema) } } },
    post: {
      summary: "Create a team",
      description: "`division`, if given, must be one of the event's divisions (any case); left out: none.",
      access: admin,
      originalCalls: ["POST /teams"],
      tag: "teams",
      body: { json: TeamCreateSchema },
      responses: { 201: { description: "Created", schema: TeamRefSchema } },
      errors: [400, 409],
    },
  },
  "/teams/{id}": {
    patch: {
      summary: "Rename a team",
      description: "Its division is kept: PUT or DELETE /teams/{id}/division changes it.",
      access: admin,
      originalCalls: ["PATCH /teams/{id}"],
      tag: "teams",
      path: idPath,
      body: { json: TeamNameSchema },
      responses: { 200: { description: "Saved", schema: TeamRefSchema } },
      errors: [400, 404, 409],
    },
    delete: {
      summary: "Delete a team",
      description: "Refused (409) while the team has submissions or members.",
      access: admin,
      originalCalls: ["DELETE /teams/{id}"],
      tag: "teams",
      path: idPath,
      responses: { 204: { description: "Deleted" } },
      errors: [404, 409],
    },
  },
  "/teams/{id}/division": {
    put: {
      summary: "Put a team in a division",
      description:
        "One of the event's divisions (Settings; matched without regard to case or look-alike letters). The team's standing is recomputed: it leaves its old division's board and joins this one's, live.",
      access: admin,
      originalCalls: [],
      tag: "teams",
      path: idPath,
      body: { json: TeamDivisionSchema },
      responses: { 200: { description: "Saved", schema: TeamRefSchema } },
      errors: [400, 404],
    },
    delete: {
      summary: "Take a team out of its division",
      description: "It stays on the overall board only.",
      access: admin,
      originalCalls: [],
      tag: "teams",
      path: idPath,
      responses: { 200: { description: "Saved", schema: TeamRefSchema } },
      errors: [404],
    },
  },
  "/teams/{id}/submissions": {
    get: {
      summary: "A team's submissions",
      access: everyone,
      ownTeamOnly: true,
      originalCalls: ["GET /submissions/team/{teamId}"],
      tag: "submissions",
      path: teamPath,
      responses: { 200: { description: "Submissions, newest first", schema: z.array(TeamSubmissionSchema) } },
      errors: [404],
    },
  },
  "/teams/{id}/scores": {
    get: {
      summary: "A team's scores per category",
      access: everyone,
      ownTeamOnly: true,
      originalCalls: ["GET /submissions/team/{teamId}/scores/category"],
      tag: "submissions",
      path: teamPath,
      responses: { 200: { description: "Scores per category", schema: CategoryScoresSchema } },
      errors: [404],
    },
  },
  "/teams/{id}/awards": {
    get: {
      summary: "A team's awards",
      description:
        "The awards an organiser gave the team (Dashboard → Awards) that count in its standing, newest first: points (negative for a penalty), category (null: the total only), reason. Revoked awards are not listed.",
      access: everyone,
      ownTeamOnly: true,
      originalCalls: [],
      tag: "teams",
      path: teamPath,
      responses: { 200: { description: "Awards, newest first", schema: z.array(AwardOutSchema) } },
      errors: [404],
    },
  },
  "/teams/{id}/challenges/{challengeId}/submission": {
    get: {
      summary: "A team's submission to a challenge",
      description: "Participants: only for a challenge they may see (active, gate open).",
      access: everyone,
      ownTeamOnly: true,
      originalCalls: ["GET /submissions/submission/{teamId}/{challengeId}"],
      tag: "submissions",
      path: teamPath.extend({ challengeId: rowId() }),
      responses: { 200: { description: "The submission", schema: OwnSubmissionSchema } },
      errors: [404],
    },
  },
  "/challenges": {
    get: {
      summary: "Every challenge (drafts included)",
      access: admin,
      originalCalls: ["GET /challenges"],
      tag: "challenges",
      responses: { 200: { description: "Challenges", schema: z.array(ChallengeListItemSchema) } },
    },
    post: {
      summary: "Create a challenge",
      description:
        "JSON, or multipart/form-data with an optional `attachment` (.jpg, .png, .pdf, .docx, checked by content; 20 MB at most, 413 past it) sent after the text fields. No wave makes a draft. Active by default. `checking`: judges (the default) or flag; a flag challenge takes 1 to 20 `answers` (JSON: a list of `{ kind, value }`; multipart: the dashboard form's text, one a line), with optional `wrongPerMinute` and `maxAttempts`, and its points may be `scoring`: dynamic, with `minimumPoints` and `decay`. `releaseAfterMinutes` opens it after its gate; `prerequisites` (ids) must be solved first; `paidHints` cost points to unlock (JSON: a list of `{ cost, text }`; multipart: the form's text, `cost | text` a line). A pattern RE2 cannot compile is refused (400, naming the answer). No response ever holds an answer.",
      access: admin,
      originalCalls: ["POST /challenges"],
      tag: "challenges",
      body: { json: ChallengeApiSchema, multipart: ChallengeCreateSchema.extend({ attachment: binary.optional() }) },
      responses: { 201: { description: "Created", schema: ChallengeOutSchema } },
      errors: [400, 413],
    },
  },
  "/challenges/{id}": {
    get: {
      summary: "One challenge",
      description: "Admins see any challenge, with its prerequisites and its paid hints' texts; others only one in a gate, and participants only an active one whose gate has opened (else 404), with each paid hint's cost, and its text once their team unlocked it.",
      access: everyone,
      originalCalls: ["GET /challenges/{id}"],
      tag: "challenges",
      path: idPath,
      responses: { 200: { description: "The challenge", schema: ChallengeOutSchema } },
      errors: [404],
    },
    put: {
      summary: "Edit a challenge",
      description:
        "Every field as on creation (JSON; the attachment and rubric stay as they are). Without `checking`, how it is checked, its answers and limits stay; with it, they are replaced (`answers` as a list of `{ kind, value }`). Without `paidHints` or `prerequisites`, they stay; an empty list removes them (a hint a team unlocked cannot be removed: 409). Changing `checking` once a team has sent a submission or an answer is refused (409). No response ever holds an answer.",
      access: admin,
      originalCalls: [],
      tag: "challenges",
      path: idPath,
      body: { json: ChallengeApiSchema },
      responses: { 200: { description: "The challenge", schema: ChallengeOutSchema } },
      errors: [400, 404, 409],
    },
  },
  "/challenges/{id}/status": {
    patch: {
      summary: "Activate or deactivate a challenge",
      access: admin,
      originalCalls: ["PATCH /challenges/status/{id}"],
      tag: "challenges",
      path: idPath,
      body: { json: ChallengeStatusSchema },
      responses: { 200: { description: "The new status", schema: ChallengeStatusOutSchema } },
      errors: [400, 404],
    },
  },
  "/challenges/{id}/attachment": {
    get: {
      summary: "Download a challenge's attachment",
      description: "Redirects to a short-lived download URL. Participants: only for a challenge they may see.",
      access: everyone,
      originalCalls: [],
      tag: "challenges",
      path: idPath,
      responses: { 302: { description: "Redirect to the file", headers: { Location: "A presigned URL valid for 60 s" } } },
      errors: [404],
    },
  },
  "/challenges/{id}/submission": {
    post: {
      summary: "Submit (or update) the caller's team's solution",
      description:
        "multipart/form-data: `text`, then `file` (streamed; 200 MB at most, 413 past it). At least one. The first call creates the team's submission (201), later ones update it (200). Refused (403) without a team, for an inactive challenge or a closed gate.",
      access: everyone,
      originalCalls: ["POST /submissions", "PATCH /submissions/submissions/{submissionId}"],
      tag: "submissions",
      path: idPath,
      body: { multipart: SubmissionFormSchema.extend({ file: binary.optional() }) },
      responses: {
        201: { description: "Created", schema: SubmitResultSchema },
        200: { description: "Updated", schema: SubmitResultSchema },
      },
      errors: [400, 404, 413],
    },
  },
  "/challenges/{id}/flag": {
    post: {
      summary: "Answer a flag challenge for the caller's team",
      description:
        "JSON `{ \"answer\": \"…\" }`: 1,024 bytes at most, surrounding spaces ignored. Checked at once: 200 with the verdict, correct (the points, when) or incorrect (attempts left, seconds to wait). Refused: 409 when the team has solved it already or the challenge is judged, 429 with Retry-After while the team must wait, 403 without a team or attempts left (admins and judges have no team: they may not answer), 400 for an empty answer, 413 for a longer one.",
      access: participant,
      originalCalls: [],
      tag: "challenges",
      path: idPath,
      body: { json: FlagAnswerSchema },
      responses: { 200: { description: "The verdict", schema: FlagVerdictSchema } },
      errors: [400, 404, 409, 413, 429],
    },
  },
  "/challenges/{id}/hints/{number}/unlock": {
    post: {
      summary: "Unlock a hint that costs points for the caller's team",
      description:
        "The challenge's hint `number` (from 1, as `paidHints` lists them): its cost is taken from the team's points once (a second unlock charges nothing), recorded in the audit trail and shown on the board at once, and its text comes back. Refused: 403 without a team (admins and judges have none), for a challenge locked by its prerequisites or once submissions are closed; 404 for a hint or a challenge the team may not see.",
      access: participant,
      originalCalls: [],
      tag: "challenges",
      path: idPath.extend({ number: z.coerce.number().int().min(1).max(MAX_PAID_HINTS).meta({ description: "The hint's number, from 1" }) }),
      responses: { 200: { description: "Unlocked", schema: HintUnlockOutSchema } },
      errors: [404],
    },
  },
  "/challenges/{id}/runs": {
    get: {
      summary: "A code challenge's runs",
      description:
        "A participant: their team's runs, newest first, and the team's points for the challenge, as the challenge's code page shows them (each test's verdict, time and memory; never a test's input or output). Admins and judges: every team's runs, 25 a page, with the team and the platform's failures, as the dashboard's page shows them. 404 for a challenge that is not checked by tests or that the caller may not see.",
      access: everyone,
      originalCalls: [],
      tag: "code",
      path: idPath,
      query: RunListQuerySchema,
      responses: { 200: { description: "The runs", schema: CodeRunsOutSchema } },
      errors: [404],
    },
    post: {
      summary: "Send a program for the caller's team",
      description:
        "JSON `{ \"language\": \"python3\", \"source\": \"…\" }`, or multipart/form-data with `language` and `source` or `file` (not both): 64 KB of text at most (413 past it), in one of the challenge's languages (400). Queued for a runner: 201 with the run. Refused: 429 with Retry-After while the team has 3 programs waiting or sent 6 in the last minute, 409 for a challenge not checked by tests or whose tests are not uploaded, 403 without a team, for a closed gate or once submissions are closed.",
      access: participant,
      originalCalls: [],
      tag: "code",
      path: idPath,
      body: { json: ProgramSchema, multipart: ProgramSchema.extend({ file: binary.optional() }) },
      responses: { 201: { description: "Queued", schema: RunSentSchema } },
      errors: [400, 404, 409, 413, 415, 429],
    },
  },
  "/challenges/{id}/rejudge": {
    post: {
      summary: "Judge a code challenge's runs again",
      description:
        "JSON `{ \"run\": 12 }` for one judged run, or `{}` for every judged run of the challenge (after its tests were fixed). Each keeps its last verdict until the new one. 409 for a run not judged yet or a challenge not checked by tests; 400 for a run id that names no row.",
      access: staff,
      originalCalls: [],
      tag: "code",
      path: idPath,
      body: { json: RejudgeSchema },
      responses: { 200: { description: "Queued again", schema: RejudgedSchema } },
      errors: [400, 404, 409],
    },
  },
  "/runs/{id}": {
    get: {
      summary: "One run of a code challenge",
      description: "A participant: their own team's only (another team's answers 404, like a missing one). Admins and judges: any run, with its team.",
      access: everyone,
      originalCalls: [],
      tag: "code",
      path: idPath,
      responses: { 200: { description: "The run", schema: CodeRunOutSchema } },
      errors: [404],
    },
  },
  "/challenges/{id}/predictions": {
    get: {
      summary: "The caller's team's predictions files",
      description:
        "Newest first, each with its public score and points and whether it counts; the private score stays null until the private scores are revealed. With the team's files today and the daily limit. 404 for a challenge not scored by a metric or that the caller may not see.",
      access: participant,
      originalCalls: [],
      tag: "predictions",
      path: idPath,
      responses: { 200: { description: "The team's files", schema: PredictionFilesOutSchema } },
      errors: [404],
    },
    post: {
      summary: "Send a predictions file for the caller's team",
      description:
        "multipart/form-data: `file`, a CSV (streamed; 64 MB at most, 413 past it). Queued to be scored: 201. Refused before the file is read: 429 once the team has sent the day's files (the event's days), 409 for a challenge not scored by a metric or whose labels are not uploaded, 403 without a team, for a closed gate, once submissions are closed or once the private scores are revealed.",
      access: participant,
      originalCalls: [],
      tag: "predictions",
      path: idPath,
      body: { multipart: z.object({ file: binary }) },
      responses: { 201: { description: "Queued", schema: PredictionSentSchema } },
      errors: [400, 404, 409, 413, 415, 429],
    },
  },
  "/challenges/{id}/predictions/choice": {
    put: {
      summary: "Choose the file that counts for the caller's team",
      description:
        "JSON `{ \"submission\": 12 }`, one of the team's scored files, or `{ \"submission\": \"latest\" }` for its latest scored one (the default). 404 for another team's file, 409 for a file not scored, 403 once the private scores are revealed.",
      access: participant,
      originalCalls: [],
      tag: "predictions",
      path: idPath,
      body: { json: ChoiceSchema },
      responses: { 200: { description: "Chosen", schema: MessageOutSchema } },
      errors: [400, 404, 409],
    },
  },
  "/challenges/{id}/predictions/reveal": {
    post: {
      summary: "Reveal a prediction challenge's private scores",
      description: "Once, and for good: from now on each team's counted file scores on the private rows, and every team reads its private scores. 409 when already revealed or before the challenge's settings.",
      access: admin,
      originalCalls: [],
      tag: "predictions",
      path: idPath,
      responses: { 200: { description: "Revealed", schema: MessageOutSchema } },
      errors: [404, 409],
    },
  },
  "/gates": {
    get: { summary: "The five gates, open or not by server time", access: everyone, originalCalls: [], tag: "challenges", responses: { 200: { description: "Gates", schema: z.array(GateOutSchema) } } },
  },
  "/gates/{wave}/challenges": {
    get: {
      summary: "A gate's active challenges, once it has opened",
      description: "With the caller's team's solved flags. A closed gate answers its header with `challenges: null`.",
      access: everyone,
      originalCalls: ["GET /challenges/wave/{wave}"],
      tag: "challenges",
      path: wavePath,
      responses: { 200: { description: "The gate board", schema: GateBoardSchema } },
      errors: [404],
    },
  },
  "/submissions": {
    get: {
      summary: "Every submission, as the judging table lists it",
      access: staff,
      originalCalls: ["GET /submissions"],
      tag: "submissions",
      query: SubmissionListQuerySchema,
      responses: { 200: { description: "Submissions", schema: z.array(SubmissionOutSchema) } },
    },
  },
  "/submissions/{id}/score": {
    put: {
      summary: "Score a submission as the caller",
      description: "One score per judge (again replaces it): 0 to the challenge's points, 2 decimals at most; optional comment and verdict.",
      access: staff,
      originalCalls: ["PUT /scores"],
      tag: "submissions",
      path: idPath,
      body: { json: ScoreFormSchema.omit({ submissionId: true }) },
      responses: { 200: { description: "Scored", schema: ScoreResultSchema } },
      errors: [400, 404],
    },
  },
  "/submissions/{id}/file": {
    get: {
      summary: "Download a submission's file",
      description: "Redirects to a short-lived download URL. Participants: their own team's only (another team's answers 404).",
      access: everyone,
      originalCalls: [],
      tag: "submissions",
      path: idPath,
      responses: { 302: { description: "Redirect to the file", headers: { Location: "A presigned URL valid for 60 s" } } },
      errors: [404],
    },
  },
  "/mentors": {
    get: { summary: "Mentor calls, newest first", access: admin, originalCalls: ["GET /mentors/mentors"], tag: "requests", responses: { 200: { description: "Mentor calls", schema: z.array(RequestOutSchema) } } },
    post: {
      summary: "Call a mentor",
      description: "From the caller and their team; admins see it live.",
      access: everyone,
      originalCalls: ["POST /mentors (status mentor)"],
      tag: "requests",
      body: { json: RequestSchema },
      responses: { 201: { description: "Sent", schema: RequestOutSchema } },
      errors: [400, 429],
    },
  },
  "/needs": {
    get: { summary: "Needs, newest first", access: admin, originalCalls: ["GET /mentors/needs"], tag: "requests", responses: { 200: { description: "Needs", schema: z.array(RequestOutSchema) } } },
    post: {
      summary: "Post a need",
      access: everyone,
      originalCalls: ["POST /mentors (status needs)"],
      tag: "requests",
      body: { json: RequestSchema },
      responses: { 201: { description: "Sent", schema: RequestOutSchema } },
      errors: [400, 429],
    },
  },
  "/scoreboard": {
    get: {
      summary: "The standings snapshot",
      description:
        "Read from the standings snapshot, never computed per request. While frozen, participants get the frozen board (their own team's points live); admins and judges get live standings. `division` gives one division's board: its teams only, ranked 1..n among themselves by the same rule (the frozen board's division as it stood at the freeze). `limit` and `offset` give a stretch of the board (a big screen's top N: `limit=10`), each stretch with its own ETag. Send If-None-Match with the last ETag: 304 when nothing changed.",
      access: everyone,
      recentCaller: true,
      originalCalls: [],
      tag: "standings",
      query: feedQuerySchema,
      responses: {
        200: { description: "The board in rank order (`limit`/`offset`: that stretch of it, with `total`, `offset` and `limit`)", schema: ScoreboardSchema, headers: { ETag: "Strong validator of this body" } },
        304: { description: "Not modified since the ETag sent" },
      },
      errors: [400],
    },
  },
  "/audit": {
    get: {
      summary: "The audit trail, newest first, a page at a time",
      description:
        "Who changed what, when, from where, before and after (docs/domain.md, Audit trail): the dashboard's audit page as JSON, with the same filters. `user` matches the records the user made and those about them. Times: an ISO 8601 instant, or a wall-clock time in the event's time zone; `to` includes the minute (or second) it names. Page with the cursors of the answer: `before=<older>` for the next page, `after=<newer>` for the page just newer. An invalid filter is a 400 naming the field.",
      access: admin,
      originalCalls: [],
      tag: "audit",
      query: AuditQuerySchema,
      responses: { 200: { description: "A page of records and the cursors of its neighbours", schema: AuditPageOutSchema } },
      errors: [400],
    },
  },
  "/openapi.json": {
    get: { summary: "This document", access: "public", originalCalls: [], tag: "docs", responses: { 200: { description: "OpenAPI 3.1" } } },
  },
};
