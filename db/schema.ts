/**
 * The whole domain (docs/domain.md) as one drizzle schema.
 * Points and scores are stored as integer hundredths (`*_centi`): scores have up to 2 decimals, and
 * integers keep sums exact so that incremental standings and a full rebuild agree to the last digit
 * (docs/decisions/003-points-in-hundredths.md).
 */
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgSequence,
  pgTable,
  pgView,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());


/**
 * A team's row of a stored board (the frozen public board): what the scoreboard shows, points as
 * numbers with up to 2 decimals. The live events' TeamStanding (app/modules/realtime/events.ts) is this.
 */
export interface StoredTeamStanding {
  id: number;
  name: string;
  totalScore: number;
  categories: Record<Category, number>;
  solvedCount: number;
  rank: number;
  /** When the team reached its current total (ISO): ties go to the earlier one. */
  reachedAt: string;
  /** Grows with every recompute of the team: a client keeps the newest of two updates. */
  version: number;
  /**
   * The team's division (one of the event's `divisions`), or null: a team without one is on the overall
   * board only (docs/domain.md "Divisions"). Boards frozen before divisions existed lack it (read as null).
   */
  division: string | null;
}

// A mentor sees and answers the teams' threads (questions, mentor calls, needs), nothing else of the dashboard.
export const roleEnum = pgEnum("role", ["admin", "judge", "participant", "mentor"]);
export const categoryEnum = pgEnum("category", ["AI", "CS", "PS", "GD"]);
export const difficultyEnum = pgEnum("difficulty", ["Easy", "Medium", "Hard"]);
export const challengeStatusEnum = pgEnum("challenge_status", ["active", "inactive"]);
export const submissionStatusEnum = pgEnum("submission_status", ["pending", "approved", "rejected", "reviewed"]);
export const requestKindEnum = pgEnum("request_kind", ["mentor", "needs", "question"]);
export const requestStatusEnum = pgEnum("request_status", ["open", "claimed", "answered", "closed"]);
// Who checks a challenge's answers: judges (a submission, scored by hand) or the platform (a flag; a metric over
// a team's predictions: docs/domain.md "Prediction challenges"; a program run against hidden tests, "tests":
// docs/domain.md "Code challenges").
export const checkingEnum = pgEnum("checking", ["judges", "flag", "metric", "tests"]);
// How a flag challenge's accepted answer matches (app/modules/flags/matching.ts).
export const flagKindEnum = pgEnum("flag_kind", ["exact", "exact_ci", "regex", "per_team"]);
export const attemptVerdictEnum = pgEnum("attempt_verdict", ["correct", "incorrect"]);
// A flag challenge's points: static, or dynamic (falling as more teams solve it: app/modules/flags/decay.ts).
export const scoringEnum = pgEnum("scoring", ["static", "dynamic"]);
// A prediction challenge's metric (app/modules/predictions/metrics.ts), and where a team's predictions file stands.
export const predictionMetricEnum = pgEnum("prediction_metric", ["accuracy", "macro_f1", "rmse", "mae", "roc_auc"]);
export const predictionStatusEnum = pgEnum("prediction_status", ["queued", "scored", "failed"]);
export const tshirtSizeEnum = pgEnum("tshirt_size", ["S", "M", "L", "XL", "XXL"]);
// The screens' languages (app/modules/i18n/i18n.ts): a user's mail is in theirs.
export const languageEnum = pgEnum("language", ["en", "ar"]);
// What a mail is for, whether the SMTP server took it, what a password link lets its holder do (docs/domain.md "Mail").
export const mailKindEnum = pgEnum("mail_kind", ["set_password", "password_reset"]);
export const mailStatusEnum = pgEnum("mail_status", ["queued", "sent", "failed"]);
export const passwordLinkPurposeEnum = pgEnum("password_link_purpose", ["set", "reset"]);

export const teams = pgTable(
  "teams",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    // Two names with one key are the same name (app/modules/names/names.ts): case and look-alikes ignored.
    nameKey: text("name_key").notNull(),
    // One of event_settings.divisions, as spelt there, or null (the overall board only). The teams module
    // checks it against the list under a lock on the settings row (docs/domain.md "Divisions").
    division: text("division"),
    // Who made the team on the team page (docs/domain.md "Teams that form themselves"): they remove members
    // and invite; null for a team an admin made, or when the captain left it (no one else stands in).
    captainId: integer("captain_id").references((): AnyPgColumn => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("teams_name_lower_key").on(sql`lower(${t.name})`), uniqueIndex("teams_name_key_key").on(t.nameKey)],
);

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    // As teams.name_key.
    nameKey: text("name_key").notNull(),
    passwordHash: text("password_hash").notNull(),
    // Optional; unique without regard to case (app/modules/mail/addresses.ts keeps it in one form).
    email: text("email"),
    // The address is known to be the person's: entered by an admin (the Users form, the import), vouched for
    // by the identity provider, or proved by a mailed link used. One copied from /register is not, until then;
    // a first sign-in through the provider binds by address only to a confirmed one (docs/domain.md).
    emailConfirmed: boolean("email_confirmed").notNull().default(false),
    // The language of the mail the user is sent.
    language: languageEnum("language").notNull().default("en"),
    role: roleEnum("role").notNull().default("participant"),
    // Restrict: a team with members cannot vanish under them; the teams module says so first.
    teamId: integer("team_id").references(() => teams.id, { onDelete: "restrict" }),
    // Unread announcements are those newer than this (kept on the server: right on every device).
    announcementsSeenAt: timestamp("announcements_seen_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Names are logins: "Alice" and "alice" must not both exist.
    uniqueIndex("users_name_lower_key").on(sql`lower(${t.name})`),
    uniqueIndex("users_name_key_key").on(t.nameKey),
    uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
    index("users_team_id_idx").on(t.teamId),
    index("users_role_idx").on(t.role),
  ],
);

export const challenges = pgTable(
  "challenges",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    // The Arabic beside the English (null: none; an Arabic reader then reads the English): docs/domain.md
    // "Event content in two languages".
    titleAr: text("title_ar"),
    descriptionAr: text("description_ar"),
    points: integer("points").notNull(),
    category: categoryEnum("category").notNull(),
    difficulty: difficultyEnum("difficulty"),
    hints: text("hints"),
    // No wave = a draft: listed in the dashboard, in no gate.
    wave: smallint("wave"),
    status: challengeStatusEnum("status").notNull().default("active"),
    attachmentKey: text("attachment_key"),
    attachmentName: text("attachment_name"),
    attachmentType: text("attachment_type"),
    // Judges (a submission each team sends, scored by hand) or flag (answers the platform checks at once:
    // docs/domain.md "Flag challenges"). Changed only while nobody has answered the challenge.
    checking: checkingEnum("checking").notNull().default("judges"),
    // The key of the per-team flags (HMAC-SHA256 of the team id, app/modules/flags/matching.ts), hex; made
    // when the challenge first gets a per-team answer. Never leaves the dashboard's export.
    flagSecret: text("flag_secret"),
    // A flag challenge's limits on wrong answers: null takes the event's setting (wrong answers a minute)
    // or none (attempts in all).
    wrongPerMinute: smallint("wrong_per_minute"),
    maxAttempts: integer("max_attempts"),
    // Dynamic points (flag challenges only): from `points` down to `minimumPoints`, reached at `decay` solves
    // (CTFd's curve, docs/domain.md "Dynamic points"); every solver counts the current value.
    scoring: scoringEnum("scoring").notNull().default("static"),
    minimumPoints: integer("minimum_points"),
    decay: integer("decay"),
    // Opens this many minutes after its gate (null: with it): app/modules/challenges/visibility.server.ts.
    releaseAfterMinutes: integer("release_after_minutes"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("challenges_wave_status_idx").on(t.wave, t.status),
    check("challenges_wrong_per_minute_range", sql`${t.wrongPerMinute} is null or ${t.wrongPerMinute} between 1 and 1000`),
    check("challenges_max_attempts_positive", sql`${t.maxAttempts} is null or ${t.maxAttempts} > 0`),
    check("challenges_release_after_range", sql`${t.releaseAfterMinutes} is null or ${t.releaseAfterMinutes} between 1 and 10080`),
    check(
      "challenges_dynamic_scoring",
      sql`${t.scoring} = 'static' or (${t.checking} = 'flag' and ${t.minimumPoints} between 1 and ${t.points} and ${t.decay} between 1 and 1000000)`,
    ),
    check("challenges_points_positive", sql`${t.points} > 0`),
    check("challenges_wave_range", sql`${t.wave} is null or ${t.wave} between 1 and 5`),
  ],
);

export const submissions = pgTable(
  "submissions",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "restrict" }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "restrict" }),
    // The user credited: the last to create or update it. A deleted user leaves the submission.
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    text: text("text"),
    fileKey: text("file_key"),
    fileName: text("file_name"),
    fileSize: integer("file_size"),
    fileType: text("file_type"),
    status: submissionStatusEnum("status").notNull().default("pending"),
    // The mean of the judges' scores, in hundredths; null until a judge scores it.
    scoreCenti: integer("score_centi"),
    // The judge's rejection. Kept apart from `status`, which an update resets to pending: a rejected
    // submission that the team updates still counts 0 until a judge scores it again (docs/domain.md).
    rejected: boolean("rejected").notNull().default(false),
    // The last time a judge's action changed the points it counts (not a re-score to the same mean, nor a
    // score on a rejected one): a team's total is "reached" at the latest of these over its submissions
    // (the tie-break, derivable from Postgres alone).
    scoredAt: timestamp("scored_at", { withTimezone: true }),
    // When the team last sent its text or file (creation or update): what a judge's score is compared with
    // ("changed since your score"). Not updated_at, which a judge's score moves too.
    revisedAt: timestamp("revised_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One submission per team and challenge: the database, not an if, stops a double submission.
    uniqueIndex("submissions_team_challenge_key").on(t.teamId, t.challengeId),
    index("submissions_challenge_id_idx").on(t.challengeId),
    index("submissions_user_id_idx").on(t.userId),
    index("submissions_status_idx").on(t.status),
    index("submissions_created_at_idx").on(t.createdAt),
  ],
);

/**
 * A submission as it was before the team replaced it: kept, file and text, so judges can compare versions
 * and settle disputes. A replaced file's object stays in storage for it.
 */
export const submissionVersions = pgTable(
  "submission_versions",
  {
    id: serial("id").primaryKey(),
    submissionId: integer("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    text: text("text"),
    fileKey: text("file_key"),
    fileName: text("file_name"),
    fileSize: integer("file_size"),
    fileType: text("file_type"),
    // When the team sent this version, and when a newer one replaced it.
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull(),
    replacedAt: timestamp("replaced_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("submission_versions_submission_idx").on(t.submissionId, t.submittedAt)],
);

/**
 * A rubric criterion of a challenge: the judge gives 0 to `maxPoints` on it; the submission's score from that
 * judge is the challenge's points × Σ weight × (given / max) / Σ weight (app/modules/scoring/rubric.ts).
 */
export const challengeCriteria = pgTable(
  "challenge_criteria",
  {
    id: serial("id").primaryKey(),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    name: text("name").notNull(),
    weight: integer("weight").notNull(),
    maxPoints: integer("max_points").notNull(),
  },
  (t) => [
    uniqueIndex("challenge_criteria_position_key").on(t.challengeId, t.position),
    check("challenge_criteria_weight_positive", sql`${t.weight} > 0`),
    check("challenge_criteria_max_positive", sql`${t.maxPoints} > 0`),
  ],
);

/** Which gates and categories a judge scores; a judge with none scores everything. */
export const judgeAssignments = pgTable(
  "judge_assignments",
  {
    id: serial("id").primaryKey(),
    judgeId: integer("judge_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    wave: smallint("wave"),
    category: categoryEnum("category"),
  },
  (t) => [
    index("judge_assignments_judge_idx").on(t.judgeId),
    check("judge_assignments_something", sql`${t.wave} is not null or ${t.category} is not null`),
    check("judge_assignments_wave_range", sql`${t.wave} is null or ${t.wave} between 1 and 5`),
  ],
);

/**
 * A judge working on a submission: while judges per submission is N, no more judges are handed it than
 * still have to score it. Renewed while the judge works on it, gone when it expires, on their next
 * submission, or on their score.
 */
export const judgeClaims = pgTable(
  "judge_claims",
  {
    judgeId: integer("judge_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    submissionId: integer("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("judge_claims_submission_idx").on(t.submissionId)],
);

export const submissionScores = pgTable(
  "submission_scores",
  {
    id: serial("id").primaryKey(),
    submissionId: integer("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    judgeId: integer("judge_id").references(() => users.id, { onDelete: "set null" }),
    scoreCenti: integer("score_centi").notNull(),
    comment: text("comment"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One score per judge per submission: re-scoring replaces it (upsert on this key).
    uniqueIndex("submission_scores_submission_judge_key").on(t.submissionId, t.judgeId),
    index("submission_scores_judge_id_idx").on(t.judgeId),
    check("submission_scores_non_negative", sql`${t.scoreCenti} >= 0`),
  ],
);

/**
 * A challenge a team must have solved before it may open this one (docs/domain.md "Gates and challenges"):
 * the rule is app/modules/challenges/visibility.server.ts's.
 */
export const challengePrerequisites = pgTable(
  "challenge_prerequisites",
  {
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    requiresId: integer("requires_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.challengeId, t.requiresId] }), check("challenge_prerequisites_not_itself", sql`${t.challengeId} <> ${t.requiresId}`)],
);

/**
 * The answers a flag challenge accepts, in order ("answer 1", "answer 2": what attempts and the audit trail
 * name, never the flag). `value`: the answer (exact, exact_ci), the pattern (regex, matched whole by RE2),
 * or the per-team flag's wrapper with `{}` where the team's HMAC goes (per_team). Never sent to participants.
 */
export const challengeFlags = pgTable(
  "challenge_flags",
  {
    id: serial("id").primaryKey(),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    kind: flagKindEnum("kind").notNull(),
    value: text("value").notNull(),
  },
  (t) => [uniqueIndex("challenge_flags_position_key").on(t.challengeId, t.position)],
);

/**
 * Every answer sent to a flag challenge (docs/domain.md "Flag challenges"). `answer` keeps what was typed
 * only for a wrong answer to a challenge without per-team flags (organisers read typos there); a right one
 * is `matched` (the answer's position). `counted`: false once an admin reset the team's count.
 */
export const flagAttempts = pgTable(
  "flag_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    verdict: attemptVerdictEnum("verdict").notNull(),
    matched: smallint("matched"),
    answer: text("answer"),
    counted: boolean("counted").notNull().default(true),
  },
  (t) => [
    index("flag_attempts_team_challenge_idx").on(t.teamId, t.challengeId, t.at),
    index("flag_attempts_challenge_idx").on(t.challengeId, t.at),
    index("flag_attempts_at_idx").on(t.at, t.id),
  ],
);

/** A team's solve of a flag challenge: one per team and challenge (the key, not an if). */
export const flagSolves = pgTable(
  "flag_solves",
  {
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    // The member who sent it: credited with it (Users Rank).
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    solvedAt: timestamp("solved_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.challengeId] }), index("flag_solves_challenge_idx").on(t.challengeId, t.solvedAt), index("flag_solves_user_idx").on(t.userId)],
);

/**
 * A team's standing on one flag challenge, in one row, so that a verdict is one statement (docs/domain.md
 * "Guessing has a price"): its counted wrong answers, the times of the latest of them (newest first, as many
 * as the limit a minute), and its solve. Written in the same statement as the attempt (flag_attempts, which
 * stays the record); its row lock takes a team's answers to a challenge in turn, across web processes.
 */
export const flagTries = pgTable(
  "flag_tries",
  {
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    wrong: integer("wrong").notNull().default(0),
    recent: timestamp("recent", { withTimezone: true }).array().notNull().default(sql`'{}'`),
    solvedAt: timestamp("solved_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.challengeId] }), index("flag_tries_challenge_idx").on(t.challengeId)],
);

/**
 * How many teams solved each flag challenge. Its row lock takes a challenge's solves in turn until the solve
 * commits: the count it returns is the solve's place (1: the first blood), and a dynamic value's input.
 */
export const flagSolveCounts = pgTable("flag_solve_counts", {
  challengeId: integer("challenge_id")
    .primaryKey()
    .references(() => challenges.id, { onDelete: "cascade" }),
  solves: integer("solves").notNull(),
  /**
   * A dynamic challenge's solvers were last recomputed at this many solves: while it is behind `solves`, every
   * solver's value is still to fall (the challenge's own outbox: the solve commits it, a worker catches it up).
   */
  recomputed: integer("recomputed").notNull().default(0),
  changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Each team's per-team flag of a challenge, as a digest (SHA-256 of the flag, hex): a wrong answer is looked
 * up here to recognise another team's flag (a sharing signal), without deriving every team's flag.
 */
export const teamFlags = pgTable(
  "team_flags",
  {
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    digest: text("digest").notNull(),
  },
  (t) => [primaryKey({ columns: [t.challengeId, t.teamId] }), uniqueIndex("team_flags_digest_key").on(t.challengeId, t.digest)],
);

/** A team sent another team's per-team flag: for the admins' eyes only (never shown to players). */
export const flagSharing = pgTable(
  "flag_sharing",
  {
    id: serial("id").primaryKey(),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    ownerTeamId: integer("owner_team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("flag_sharing_at_idx").on(t.at)],
);

/**
 * Hints a team may unlock for points (docs/domain.md "Hints that cost points"), apart from `challenges.hints`
 * (which judges read as criteria). A locked hint's text never leaves the server.
 */
export const challengeHints = pgTable(
  "challenge_hints",
  {
    id: serial("id").primaryKey(),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    text: text("text").notNull(),
    // What unlocking it costs the team, in hundredths; 0: free.
    costCenti: integer("cost_centi").notNull(),
  },
  (t) => [uniqueIndex("challenge_hints_position_key").on(t.challengeId, t.position), check("challenge_hints_cost_range", sql`${t.costCenti} between 0 and 10000000`)],
);

/** A team's unlock of a hint: once per team and hint; what it paid is kept as it was then. */
export const hintUnlocks = pgTable(
  "hint_unlocks",
  {
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    hintId: integer("hint_id")
      .notNull()
      .references(() => challengeHints.id, { onDelete: "restrict" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    costCenti: integer("cost_centi").notNull(),
    unlockedAt: timestamp("unlocked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.hintId] })],
);

/**
 * A team's points that are not answers (migration 0020): its awards, and what its hint unlocks cost (a
 * negative amount in the hint's challenge's category, at the moment of the unlock; free hints are not in it).
 * The standings read this, so an unlock moves the total, its category and the reached time as an award does.
 */
export const teamAwards = pgView("team_awards", {
  teamId: integer("team_id").notNull(),
  pointsCenti: integer("points_centi").notNull(),
  category: categoryEnum("category"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
}).existing();

/**
 * What each team's answers count, judged or checked (migrations 0018, 0019; predictions: the counted submission's
 * public points, its private ones once revealed, docs/domain.md "Prediction challenges"): a submission's judged score,
 * and a flag solve at the challenge's whole value (its points, or its dynamic value now: app/modules/flags/
 * decay.ts says the same in TypeScript), so it is solved by definition. The standings, the gate
 * pages' solved marks and the statistics read this, so the two kinds of challenge count alike.
 */
export const teamAnswers = pgView("team_answers", {
  teamId: integer("team_id").notNull(),
  challengeId: integer("challenge_id").notNull(),
  userId: integer("user_id"),
  rejected: boolean("rejected").notNull(),
  scoreCenti: integer("score_centi"),
  scoredAt: timestamp("scored_at", { withTimezone: true }),
  // A flag solve (solved by definition, whatever a dynamic challenge's value has fallen to); false: judged.
  flag: boolean("flag").notNull(),
}).existing();

/**
 * A prediction challenge's scoring (docs/domain.md "Prediction challenges"): its metric, its hidden labels (a CSV in
 * storage; `labels_rows` etc. are what their upload read), the share of rows that is public (drawn with `seed`:
 * app/modules/predictions/split.ts), the baseline and the target that set the points, and the daily limit. `seed`,
 * the labels and the private scores never reach a participant before `revealed_at`.
 */
export const predictionChallenges = pgTable(
  "prediction_challenges",
  {
    challengeId: integer("challenge_id")
      .primaryKey()
      .references(() => challenges.id, { onDelete: "cascade" }),
    metric: predictionMetricEnum("metric").notNull(),
    publicPercent: smallint("public_percent").notNull().default(30),
    baseline: doublePrecision("baseline").notNull(),
    target: doublePrecision("target").notNull(),
    // Predictions a team may send each day (the event's time zone's days).
    dailyLimit: smallint("daily_limit").notNull().default(5),
    // 32 random bytes, hex: the public rows' draw. Made with the row; a new labels file keeps it.
    seed: text("seed").notNull(),
    labelsKey: text("labels_key"),
    labelsName: text("labels_name"),
    labelsRows: integer("labels_rows"),
    idColumn: text("id_column"),
    targetColumn: text("target_column"),
    // When the private scores were revealed (an admin's button, or the event's final instant: the worker's sweep);
    // null: the public scores count.
    revealedAt: timestamp("revealed_at", { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("prediction_challenges_public_percent_range", sql`${t.publicPercent} between 1 and 99`),
    check("prediction_challenges_daily_limit_range", sql`${t.dailyLimit} between 1 and 1000`),
    check("prediction_challenges_baseline_target", sql`${t.baseline} <> ${t.target}`),
  ],
);

/**
 * A team's predictions file for a prediction challenge, and its scores once the worker read it (the public and the
 * private score), or the faults that stopped it (its first lines at fault).
 */
export const predictionSubmissions = pgTable(
  "prediction_submissions",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    fileKey: text("file_key").notNull(),
    fileName: text("file_name").notNull(),
    fileSize: integer("file_size").notNull(),
    // The event's day (its time zone) it was sent on: the daily limit counts these.
    day: date("day").notNull(),
    status: predictionStatusEnum("status").notNull().default("queued"),
    // Faults (app/modules/predictions/parse.ts `Faults`): a failed file's first lines at fault.
    faults: jsonb("faults"),
    // The metric's value on the public rows and on the private ones (null: undefined, which counts 0). Points are
    // not kept: the team_answers view makes them from these, the challenge's points, baseline and target.
    publicScore: doublePrecision("public_score"),
    privateScore: doublePrecision("private_score"),
    createdAt: createdAt(),
    scoredAt: timestamp("scored_at", { withTimezone: true }),
  },
  (t) => [
    index("prediction_submissions_team_challenge_idx").on(t.teamId, t.challengeId, t.id),
    index("prediction_submissions_challenge_idx").on(t.challengeId, t.status),
    index("prediction_submissions_day_idx").on(t.teamId, t.challengeId, t.day),
  ],
);

/** The submission a team chose to count for a prediction challenge (none: its latest scored one). */
export const predictionChoices = pgTable(
  "prediction_choices",
  {
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    submissionId: integer("submission_id")
      .notNull()
      .references(() => predictionSubmissions.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.challengeId] })],
);

/**
 * Every choice a team made of its counted file (null: its latest scored one), kept so that the per-challenge
 * leaderboard a participant sees while the board is frozen counts each other team's file as chosen at the freeze
 * (app/modules/predictions/predictions.server.ts `leaderboard`).
 */
export const predictionChoiceHistory = pgTable(
  "prediction_choice_history",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    // Null: its latest scored file (a chosen file deleted counts so too, as prediction_choices then does).
    submissionId: integer("submission_id").references(() => predictionSubmissions.id, { onDelete: "set null" }),
    // When the choice was written (clock_timestamp(), under the challenge's lock): choices of a team are read in id order.
    chosenAt: timestamp("chosen_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [index("prediction_choice_history_team_idx").on(t.challengeId, t.teamId, t.chosenAt)],
);

/**
 * A code challenge's settings (docs/domain.md "Code challenges"): the languages it takes (of the sandbox's:
 * app/infrastructure/sandbox/languages.server.ts), its time and memory limits per test, how output is compared,
 * and its hidden tests (a .tar.gz in storage, read by app/modules/code/tests-archive.server.ts at its upload;
 * `subtasks` is what that read: each subtask's name, share of the points and number of tests). The tests'
 * contents never leave storage but for the runner.
 */
export const codeChallenges = pgTable(
  "code_challenges",
  {
    challengeId: integer("challenge_id")
      .primaryKey()
      .references(() => challenges.id, { onDelete: "cascade" }),
    languages: text("languages").array().notNull(),
    timeLimitMs: integer("time_limit_ms").notNull().default(2000),
    memoryLimitMb: integer("memory_limit_mb").notNull().default(256),
    comparator: text("comparator", { enum: ["exact", "numeric", "checker"] }).notNull().default("exact"),
    // The admin's checker program (comparator 'checker'; app/modules/code/checker.server.ts): its language, source,
    // file name and content hash; compiled by a runner, which writes back whether it compiled (`checker_state`:
    // pending, compiled, failed) and the compiler's message for the admins (`checker_message`), for that hash only,
    // with why the compile was stopped if it was (`checker_problem`: app/infrastructure/sandbox/programs.server.ts
    // `CompileProblem`).
    checkerLanguage: text("checker_language"),
    checkerSource: text("checker_source"),
    checkerName: text("checker_name"),
    checkerHash: text("checker_hash"),
    checkerState: text("checker_state", { enum: ["pending", "compiled", "failed"] }),
    checkerMessage: text("checker_message"),
    checkerProblem: text("checker_problem", { enum: ["compile-timeout", "compile-memory", "compile-output"] }),
    // Bumped by whatever makes a judgement in progress outdated (new tests, a new checker, a rejudge of every run): a
    // runner that started on an older one queues its run again rather than record it (app/modules/code/runner.server.ts).
    generation: integer("generation").notNull().default(0),
    testsKey: text("tests_key"),
    testsName: text("tests_name"),
    // [{ name, share, tests }] in the order they run (app/modules/code/runs.server.ts `SubtaskSummary`).
    subtasks: jsonb("subtasks").notNull().default([]),
    totalShare: integer("total_share"),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("code_challenges_time_limit_range", sql`${t.timeLimitMs} between 100 and 20000`),
    check("code_challenges_memory_limit_range", sql`${t.memoryLimitMb} between 16 and 1024`),
    check("code_challenges_total_share_positive", sql`${t.totalShare} is null or ${t.totalShare} > 0`),
    check("code_challenges_checker_size", sql`octet_length(${t.checkerSource}) <= 65536`),
  ],
);

/**
 * The compiler or runtime each language is judged with, as the runners report it when they start (the Debian package
 * and its version on the runner's machine, app/infrastructure/sandbox/languages.server.ts): what teams are shown,
 * whatever machine serves the page. The last runner to start speaks for all (docs/operations.md "Code runners").
 */
export const runnerLanguages = pgTable("runner_languages", {
  language: text("language").primaryKey(),
  version: text("version").notNull(),
  reportedAt: timestamp("reported_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Where a run stands: waiting for a runner, compiling, running its tests, judged. */
export const runStateEnum = pgEnum("run_state", ["queued", "compiling", "running", "done"]);

/**
 * One program a team sent to a code challenge, and its judgement (docs/domain.md "Code challenges"): rows of
 * their own, apart from the one-per-team submissions judges score. `passed_subtasks` are the subtasks every
 * test of which it passed; the team's points for the challenge are made from them by the team_answers view
 * (the best of each subtask over all its runs, reached at the run that first passed it). `failure` and
 * `failures` are the platform's side (judge errors, re-queued): for the admins, never the team.
 */
export const codeRuns = pgTable(
  "code_runs",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    language: text("language").notNull(),
    source: text("source").notNull(),
    state: runStateEnum("state").notNull().default("queued"),
    verdict: text("verdict", {
      enum: ["accepted", "wrong-answer", "time-limit", "memory-limit", "runtime-error", "compilation-error", "output-limit"],
    }),
    // [{ subtask, test, verdict, timeMs, memoryBytes }] (app/modules/code/judge.server.ts `TestResult`).
    tests: jsonb("tests"),
    passedSubtasks: text("passed_subtasks").array().notNull().default(sql`'{}'::text[]`),
    // This run's own points (hundredths); the team's for the challenge are the view's.
    pointsCenti: integer("points_centi"),
    compileMessage: text("compile_message"),
    // Why the compile was stopped, as a code the screens put in words (app/infrastructure/sandbox/programs.server.ts
    // `CompileProblem`): the compiler's own lines stay in compile_message.
    compileProblem: text("compile_problem", { enum: ["compile-timeout", "compile-memory", "compile-output"] }),
    // The live "running test n of m".
    testIndex: integer("test_index"),
    testCount: integer("test_count"),
    failures: smallint("failures").notNull().default(0),
    failure: text("failure"),
    createdAt: createdAt(),
    // The run's last sign of life from its runner: set when it starts compiling, then at each test. The sweep takes
    // a run silent for three minutes for one whose runner is gone (app/modules/code/runs.server.ts).
    aliveAt: timestamp("alive_at", { withTimezone: true }),
    // The queue job that last took the run (app/modules/code/runner.server.ts `judgeRun`): that job, handed out again
    // after its runner died (BullMQ's stalled jobs), or retried after an error, may take it back at once. Null: never
    // taken yet.
    claimedBy: text("claimed_by"),
    // A new value at each taking: every write of the runner that took it names it, so a runner that was taken over
    // (silent, or its job handed out again while it was only slow) changes nothing once it wakes.
    claimToken: text("claim_token"),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("code_runs_team_challenge_idx").on(t.teamId, t.challengeId, t.id),
    index("code_runs_challenge_idx").on(t.challengeId, t.id),
    index("code_runs_state_idx").on(t.state, t.id),
    check("code_runs_source_size", sql`octet_length(${t.source}) <= 65536`),
  ],
);

/** A judge's score on each rubric criterion of a submission (their submission score is derived from these). */
export const criterionScores = pgTable(
  "criterion_scores",
  {
    submissionScoreId: integer("submission_score_id")
      .notNull()
      .references(() => submissionScores.id, { onDelete: "cascade" }),
    criterionId: integer("criterion_id")
      .notNull()
      .references(() => challengeCriteria.id, { onDelete: "cascade" }),
    scoreCenti: integer("score_centi").notNull(),
  },
  (t) => [primaryKey({ columns: [t.submissionScoreId, t.criterionId] }), check("criterion_scores_non_negative", sql`${t.scoreCenti} >= 0`)],
);

/** Derived: one row per team, recomputed by the standings worker. */
export const standings = pgTable(
  "standings",
  {
    teamId: integer("team_id")
      .primaryKey()
      .references(() => teams.id, { onDelete: "cascade" }),
    aiCenti: integer("ai_centi").notNull().default(0),
    csCenti: integer("cs_centi").notNull().default(0),
    psCenti: integer("ps_centi").notNull().default(0),
    gdCenti: integer("gd_centi").notNull().default(0),
    totalCenti: integer("total_centi").notNull().default(0),
    solvedCount: integer("solved_count").notNull().default(0),
    // When the team reached its total: equal totals go to the earlier one. The rank is not stored: it is
    // the position in the ranking order (app/modules/standings/ranking.ts), kept in a Redis sorted set.
    totalReachedAt: timestamp("total_reached_at", { withTimezone: true }).notNull().defaultNow(),
    // What clients were last told of the team (its standing's JSON without its update counter and rank,
    // app/modules/standings/shown.ts): the job publishes `teams:update` only when the new one differs. Kept
    // here, not in Redis, so that a job rolled back after writing Redis still publishes on its retry. Null:
    // not known (publish).
    shown: text("shown"),
    updatedAt: updatedAt(),
  },
);

/** Derived: a row each time a team's total changes (the score-over-time chart reads it). */
export const standingsHistory = pgTable(
  "standings_history",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    totalCenti: integer("total_centi").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("standings_history_team_at_idx").on(t.teamId, t.at)],
);

export const standingsOutboxVersion = pgSequence("standings_outbox_version_seq");

/**
 * Outbox: teams whose standings must be recomputed, written in the same transaction as the score.
 * Every request takes a fresh `version`; a job removes the row only if the version is still the one
 * it read before computing, so a change that lands mid-job is never dropped.
 */
export const standingsOutbox = pgTable("standings_outbox", {
  teamId: integer("team_id")
    .primaryKey()
    .references(() => teams.id, { onDelete: "cascade" }),
  version: bigint("version", { mode: "number" })
    .notNull()
    .default(sql`nextval('standings_outbox_version_seq')`),
  requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Derived: a participant's points from the submissions credited to them (admin Users Rank). */
export const userStatistics = pgTable("user_statistics", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  aiCenti: integer("ai_centi").notNull().default(0),
  csCenti: integer("cs_centi").notNull().default(0),
  psCenti: integer("ps_centi").notNull().default(0),
  gdCenti: integer("gd_centi").notNull().default(0),
  totalCenti: integer("total_centi").notNull().default(0),
  aiSolved: integer("ai_solved").notNull().default(0),
  csSolved: integer("cs_solved").notNull().default(0),
  psSolved: integer("ps_solved").notNull().default(0),
  gdSolved: integer("gd_solved").notNull().default(0),
  updatedAt: updatedAt(),
});

export const announcements = pgTable(
  "announcements",
  {
    id: serial("id").primaryKey(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    // The Arabic beside the English (null: none): docs/domain.md "Event content in two languages".
    titleAr: text("title_ar"),
    contentAr: text("content_ar"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    // An answer to a challenge question published to every team: the challenge page links it.
    challengeId: integer("challenge_id").references(() => challenges.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("announcements_created_at_idx").on(sql`${t.createdAt} desc`), index("announcements_challenge_idx").on(t.challengeId)],
);

export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    message: text("message").notNull(),
    // The Arabic beside the English (null: none): docs/domain.md "Event content in two languages".
    messageAr: text("message_ar"),
    sentBy: integer("sent_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_created_at_idx").on(sql`${t.createdAt} desc`)],
);

/**
 * A team's thread with the organisers: a mentor call, a need, or a question about a challenge. `message` is
 * the team's first message; later ones (both sides) are `request_messages`. Status: open → claimed (by an
 * organiser) → answered → closed.
 */
export const requests = pgTable(
  "requests",
  {
    id: serial("id").primaryKey(),
    kind: requestKindEnum("kind").notNull(),
    message: text("message").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    teamId: integer("team_id").references(() => teams.id, { onDelete: "set null" }),
    // A question's challenge.
    challengeId: integer("challenge_id").references(() => challenges.id, { onDelete: "set null" }),
    status: requestStatusEnum("status").notNull().default("open"),
    claimedBy: integer("claimed_by").references(() => users.id, { onDelete: "set null" }),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("requests_kind_created_at_idx").on(t.kind, sql`${t.createdAt} desc`),
    index("requests_status_created_at_idx").on(t.status, t.createdAt),
    index("requests_team_idx").on(t.teamId),
  ],
);

/** A message of a thread after its first: the team's (from_team) or an organiser's reply. Plain text. */
export const requestMessages = pgTable(
  "request_messages",
  {
    id: serial("id").primaryKey(),
    requestId: integer("request_id")
      .notNull()
      .references(() => requests.id, { onDelete: "cascade" }),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    fromTeam: boolean("from_team").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("request_messages_request_idx").on(t.requestId, t.id)],
);

export const registrations = pgTable(
  "registrations",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    nationalId: text("national_id").notNull(),
    skill: text("skill").notNull(),
    tshirtSize: tshirtSizeEnum("tshirt_size").notNull(),
    hasTeam: boolean("has_team").notNull(),
    teamName: text("team_name"),
    linkedin: text("linkedin"),
    portfolio: text("portfolio"),
    major: text("major"),
    university: text("university"),
    // The language the form was shown in: the account made from it is mailed in it.
    language: languageEnum("language").notNull().default("en"),
    // Set when an admin turns the registration into a participant account.
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    // Not unique: a second registration with an address is kept (the visitor is thanked alike) and shown to
    // the admins as a duplicate; an address has one account (users_email_lower_key).
    index("registrations_email_lower_idx").on(sql`lower(${t.email})`),
    index("registrations_created_at_idx").on(t.createdAt),
  ],
);

/** One row (id = 1): the event's editable settings. */
export const eventSettings = pgTable(
  "event_settings",
  {
    id: smallint("id").primaryKey().default(1),
    name: text("name").notNull().default("Gatekeeper"),
    timeZone: text("time_zone").notNull().default("Africa/Algiers"),
    finalAt: timestamp("final_at", { withTimezone: true }).notNull(),
    // When teams stop sending answers; null closes them at finalAt (docs/RELIABILITY.md "Rules at the edges").
    submissionsCloseAt: timestamp("submissions_close_at", { withTimezone: true }),
    video1: text("video1"),
    video2: text("video2"),
    // How many judges score each submission: null = every judge (the mean counts); N = a submission leaves
    // every judge's queue once N judges scored its latest version (docs/domain.md "Judging").
    judgesPerSubmission: smallint("judges_per_submission"),
    // Judges see no team or member names until an admin turns this off (publishes the results).
    blindJudging: boolean("blind_judging").notNull().default(false),
    // The gates whose judging feedback (criterion scores, judges' comments, the mean) teams may read.
    feedbackGates: smallint("feedback_gates").array().notNull().default(sql`'{}'::smallint[]`),
    scoreboardFrozen: boolean("scoreboard_frozen").notNull().default(false),
    frozenAt: timestamp("frozen_at", { withTimezone: true }),
    // The public board as it stood when frozen: what participants see until unfreeze. Stored
    // apart from the live standings (as DOMjudge keeps public and jury views apart).
    frozenBoard: jsonb("frozen_board").$type<StoredTeamStanding[]>(),
    // The event's divisions (brackets such as "Student" and "Open"), in the order the scoreboard's filter
    // lists them; empty: no divisions, one board (docs/domain.md "Divisions").
    divisions: text("divisions").array().notNull().default(sql`'{}'::text[]`),
    // The most members a team may have; lowering it keeps the members a team has (docs/domain.md "Teams").
    teamSizeCap: smallint("team_size_cap").notNull().default(5),
    // Participants create teams and invite others on the team page; while on, a registration's team is a
    // wish the admins read, not a membership (docs/domain.md "Teams that form themselves").
    selfFormedTeams: boolean("self_formed_teams").notNull().default(false),
    // No one joins, leaves, is removed or invites by themselves (an admin still edits teams by hand).
    teamsLocked: boolean("teams_locked").notNull().default(false),
    // Participants may sign in with a password; off (only while an identity provider is configured) they sign
    // in through the provider only; staff always keep passwords (docs/domain.md "Passwords off for participants").
    participantPasswords: boolean("participant_passwords").notNull().default(true),
    // Flag challenges: the wrong answers a team may send a challenge in a minute before it waits (a
    // challenge may set its own); docs/domain.md "Flag challenges".
    flagWrongPerMinute: smallint("flag_wrong_per_minute").notNull().default(5),
    // The first-blood webhook (docs/domain.md "First-blood webhook"): an https URL (null: off), the body's
    // format, and the secret its posts are signed with (made by the server; shown to an admin once).
    firstBloodWebhookUrl: text("first_blood_webhook_url"),
    firstBloodWebhookFormat: text("first_blood_webhook_format", { enum: ["discord", "slack"] }).notNull().default("discord"),
    firstBloodWebhookSecret: text("first_blood_webhook_secret"),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("event_settings_single_row", sql`${t.id} = 1`),
    check("event_settings_team_size_cap", sql`${t.teamSizeCap} between 1 and 100`),
    check("event_settings_flag_wrong_per_minute", sql`${t.flagWrongPerMinute} between 1 and 1000`),
    check("event_settings_first_blood_webhook_format", sql`${t.firstBloodWebhookFormat} in ('discord', 'slack')`),
    check("event_settings_judges_per_submission", sql`${t.judgesPerSubmission} is null or ${t.judgesPerSubmission} between 1 and 20`),
  ],
);

export const gates = pgTable(
  "gates",
  {
    number: smallint("number").primaryKey(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    // The Arabic beside the English (null: none): docs/domain.md "Event content in two languages".
    titleAr: text("title_ar"),
    descriptionAr: text("description_ar"),
    opensAt: timestamp("opens_at", { withTimezone: true }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [check("gates_number_range", sql`${t.number} between 1 and 5`)],
);

export const meals = pgTable(
  "meals",
  {
    id: serial("id").primaryKey(),
    label: text("label").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (t) => [index("meals_at_idx").on(t.at)],
);

/**
 * Personal API tokens (docs/decisions/009-http-api.md): an admin creates one for a user; it carries
 * that user's role. Only the SHA-256 of the token is stored (a long random token needs no slow
 * hash, and a digest can be looked up by index); the plain token is shown once.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    // The first characters of the token, shown in the list so an admin can tell tokens apart.
    prefix: text("prefix").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("api_tokens_token_hash_key").on(t.tokenHash), index("api_tokens_user_id_idx").on(t.userId)],
);

/**
 * Sign-in sessions (docs/decisions/015-server-side-sessions.md): the browser's cookie holds a random
 * token; only its SHA-256 is stored. A session ends when its row is deleted (logout, an admin, a change
 * to the user) or when it has been idle or alive too long.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [uniqueIndex("sessions_token_hash_key").on(t.tokenHash), index("sessions_user_id_idx").on(t.userId)],
);

/**
 * Mail to a user (docs/domain.md "Mail"), one row per message: written when it is asked for (in the
 * transaction that asks), sent by a worker (the `mail` queue), marked sent when the SMTP server accepted it,
 * or failed after its last try. What an admin reads per user; never the link it carried.
 */
export const mails = pgTable(
  "mails",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: mailKindEnum("kind").notNull(),
    toAddress: text("to_address").notNull(),
    language: languageEnum("language").notNull(),
    status: mailStatusEnum("status").notNull().default("queued"),
    attempts: smallint("attempts").notNull().default(0),
    // The SMTP server's answer: its acceptance, or the last refusal or failure (cut short).
    smtpResponse: text("smtp_response"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    failedAt: timestamp("failed_at", { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("mails_user_id_idx").on(t.userId, t.id),
    // The workers' sweep: queued mails whose job never reached Redis.
    index("mails_queued_idx").on(t.updatedAt).where(sql`${t.status} = 'queued'`),
  ],
);

/**
 * Single-use links to choose a password: `set` for a new account (PASSWORD_LINK_HOURS), `reset` for a
 * forgotten one (30 minutes). The link carries a selector (which row) and a verifier; only the verifier's
 * SHA-256 is stored, compared in constant time (app/modules/mail/password-links.server.ts).
 */
export const passwordLinks = pgTable(
  "password_links",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: passwordLinkPurposeEnum("purpose").notNull(),
    selector: text("selector").notNull(),
    verifierHash: text("verifier_hash").notNull(),
    // The mail that carried it (a new try of that mail replaces an unused link).
    mailId: integer("mail_id").references(() => mails.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("password_links_selector_key").on(t.selector), index("password_links_user_id_idx").on(t.userId), index("password_links_mail_id_idx").on(t.mailId)],
);

/**
 * A team's invitation (docs/domain.md "Teams that form themselves"): a short code, also carried by a link,
 * `<selector>-<verifier>` in Crockford's base32 (20 and 40 random bits); the selector finds the row, only the
 * verifier's SHA-256 is stored and compared in constant time (app/modules/teams/invites.server.ts). Used by
 * as many people as the team has room for, until it expires or the captain revokes it.
 */
export const teamInvites = pgTable(
  "team_invites",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    selector: text("selector").notNull(),
    verifierHash: text("verifier_hash").notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    // How many joined with it.
    joins: integer("joins").notNull().default(0),
  },
  (t) => [uniqueIndex("team_invites_selector_key").on(t.selector), index("team_invites_team_id_idx").on(t.teamId)],
);

/**
 * Points an admin gives a team outside any challenge (a talk, a penalty): positive or negative, in
 * hundredths, with a reason and optionally a category. They count in the team's total (and that
 * category) through the standings pipeline, as scores do. Revoking one sets `revoked_at`; the row stays.
 */
export const awards = pgTable(
  "awards",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    pointsCenti: integer("points_centi").notNull(),
    category: categoryEnum("category"),
    reason: text("reason").notNull(),
    givenBy: integer("given_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedBy: integer("revoked_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [index("awards_team_idx").on(t.teamId), check("awards_points_nonzero", sql`${t.pointsCenti} <> 0`)],
);

/**
 * The audit trail (docs/domain.md "Audit trail"): one row per change to what a team sees or is ranked by,
 * written in the transaction of the change. Append-only: the database refuses UPDATE, DELETE and TRUNCATE
 * (migration 0012). No foreign keys: a record outlives the user, team or submission it names, and a
 * cascade or "set null" would be an update. Names are copied as they were.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    // Server time: the transaction's (the same instant the change's own rows carry).
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    kind: text("kind").notNull(),
    actorId: integer("actor_id"),
    actorName: text("actor_name"),
    actorRole: text("actor_role"),
    // How the actor came: a browser session, an API token, or the system (seed, scripts).
    via: text("via").notNull(),
    sessionId: integer("session_id"),
    tokenId: integer("token_id"),
    ip: text("ip"),
    // The team and the user the change is about, where there is one (the filters read these).
    teamId: integer("team_id"),
    userId: integer("user_id"),
    // The row changed: a submission's, challenge's, gate's… id, as the kind says.
    subjectId: bigint("subject_id", { mode: "number" }),
    before: jsonb("before"),
    after: jsonb("after"),
  },
  (t) => [
    // Read newest first (a backward scan): "order by at desc, id desc" under any one filter.
    index("audit_log_at_idx").on(t.at, t.id),
    index("audit_log_team_idx").on(t.teamId, t.at, t.id),
    index("audit_log_actor_idx").on(t.actorId, t.at, t.id),
    index("audit_log_user_idx").on(t.userId, t.at, t.id),
    index("audit_log_kind_idx").on(t.kind, t.at, t.id),
    // A user's records of one kind: without it, a kind the user never made reads every record they made
    // (40,000 for a busy admin, 120 ms) to find none (docs/PERFORMANCE.md "Audit trail").
    index("audit_log_actor_kind_idx").on(t.actorId, t.kind, t.at, t.id),
  ],
);

export type Team = typeof teams.$inferSelect;
export type NewTeam = typeof teams.$inferInsert;
export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type Role = (typeof roleEnum.enumValues)[number];
export type Category = (typeof categoryEnum.enumValues)[number];
export type Challenge = typeof challenges.$inferSelect;
export type NewChallenge = typeof challenges.$inferInsert;
export type Submission = typeof submissions.$inferSelect;
export type SubmissionScore = typeof submissionScores.$inferSelect;
export type Standing = typeof standings.$inferSelect;
export type Announcement = typeof announcements.$inferSelect;
export type Notification = typeof notifications.$inferSelect;
export type Request = typeof requests.$inferSelect;
export type RequestMessage = typeof requestMessages.$inferSelect;
export type Registration = typeof registrations.$inferSelect;
export type EventSettings = typeof eventSettings.$inferSelect;
export type Gate = typeof gates.$inferSelect;
export type Meal = typeof meals.$inferSelect;
export type ApiToken = typeof apiTokens.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type Mail = typeof mails.$inferSelect;
export type MailKind = (typeof mailKindEnum.enumValues)[number];
export type Award = typeof awards.$inferSelect;
export type AuditRecord = typeof auditLog.$inferSelect;

/**
 * Integrity signals (docs/domain.md "Integrity signals", docs/decisions/045-integrity-signals.md). A challenge's
 * starter code or template, set by an admin: what every team shares, subtracted before answers are compared.
 */
export const challengeStarters = pgTable("challenge_starters", {
  challengeId: integer("challenge_id")
    .primaryKey()
    .references(() => challenges.id, { onDelete: "cascade" }),
  text: text("text").notNull(),
  updatedAt: updatedAt(),
});

/**
 * A challenge's starter files (docs/decisions/048-starter-files.md): files every team is given — a template, a
 * skeleton program, a picture — set by an admin on the signals page, stored in S3 (`file_key`, never served to
 * teams). A team's file byte for byte one of them makes no identical-file signal, an image near one of them no
 * image signal, and a text file's shingles are subtracted as the starter text's are.
 */
export const challengeStarterFiles = pgTable(
  "challenge_starter_files",
  {
    id: serial("id").primaryKey(),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    fileKey: text("file_key").notNull().unique(),
    size: integer("size").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("challenge_starter_files_challenge_idx").on(t.challengeId, t.id)],
);

/**
 * A fingerprint of one version of a submission (`version_at` is the submission's revised_at when it was sent,
 * which its row in submission_versions keeps as submitted_at): from its text, or from its file. `content_hash`
 * is the SHA-256 of the file's bytes; `signature` the MinHash of the text's (or text file's) shingles, null
 * when too little of it is the team's own. Written by the integrity worker, never in a request.
 */
export const submissionPrints = pgTable(
  "submission_prints",
  {
    id: serial("id").primaryKey(),
    submissionId: integer("submission_id")
      .notNull()
      .references(() => submissions.id, { onDelete: "cascade" }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    challengeId: integer("challenge_id")
      .notNull()
      .references(() => challenges.id, { onDelete: "cascade" }),
    versionAt: timestamp("version_at", { withTimezone: true }).notNull(),
    source: text("source", { enum: ["text", "file"] }).notNull(),
    kind: text("kind", { enum: ["text", "code", "file", "image"] }).notNull(),
    contentHash: text("content_hash"),
    shingles: integer("shingles").notNull().default(0),
    signature: integer("signature").array(),
    // An image's 64-bit dHash (signed as Postgres keeps it; app/modules/integrity/image-hash.ts), null for
    // anything else, a plain picture or one like the challenge's own attachment.
    imageHash: bigint("image_hash", { mode: "bigint" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("submission_prints_version_key").on(t.submissionId, t.versionAt, t.source),
    index("submission_prints_hash_idx").on(t.challengeId, t.contentHash),
  ],
);

/** A print's LSH band keys: the candidates of a new print are the prints sharing one of its keys, found by index. */
export const printBands = pgTable(
  "print_bands",
  {
    challengeId: integer("challenge_id").notNull(),
    key: integer("key").notNull(),
    printId: integer("print_id")
      .notNull()
      .references(() => submissionPrints.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.challengeId, t.key, t.printId] }), index("print_bands_print_idx").on(t.printId)],
);

/**
 * An image print's band keys (app/modules/integrity/image-hash.ts): two hashes within the image threshold share
 * at least one, so a new image's candidates are found by index, as print_bands finds texts'.
 */
export const imageBands = pgTable(
  "image_bands",
  {
    challengeId: integer("challenge_id").notNull(),
    key: integer("key").notNull(),
    printId: integer("print_id")
      .notNull()
      .references(() => submissionPrints.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.challengeId, t.key, t.printId] }), index("image_bands_print_idx").on(t.printId)],
);

/**
 * One integrity signal: two teams whose answers look alike, a flag of one sent by another, a browser signed in
 * as members of two teams, an account used from many browsers. For admins and judges only, never participants.
 * `source_key` makes the worker's writes idempotent (one signal per new version and other team, per flag
 * sharing, per device and team pair, per account). People decide: dismissed with a reason, or confirmed (with
 * the penalty award it gave).
 */
export const integritySignals = pgTable(
  "integrity_signals",
  {
    id: serial("id").primaryKey(),
    kind: text("kind", { enum: ["similar", "identical-file", "image", "flag-shared", "device-shared", "many-devices"] }).notNull(),
    challengeId: integer("challenge_id").references(() => challenges.id, { onDelete: "cascade" }),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    otherTeamId: integer("other_team_id").references(() => teams.id, { onDelete: "cascade" }),
    printId: integer("print_id").references(() => submissionPrints.id, { onDelete: "set null" }),
    otherPrintId: integer("other_print_id").references(() => submissionPrints.id, { onDelete: "set null" }),
    // The similarity in percent (100 for an identical file, a shared flag); for devices, the count.
    similarity: smallint("similarity").notNull(),
    details: jsonb("details").$type<Record<string, string | number | null>>().notNull().default(sql`'{}'::jsonb`),
    sourceKey: text("source_key").notNull(),
    status: text("status", { enum: ["open", "dismissed", "confirmed"] }).notNull().default("open"),
    reason: text("reason"),
    decidedBy: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    awardId: integer("award_id").references(() => awards.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("integrity_signals_source_key").on(t.sourceKey),
    index("integrity_signals_status_idx").on(t.status, t.similarity),
    index("integrity_signals_print_idx").on(t.printId),
    index("integrity_signals_other_print_idx").on(t.otherPrintId),
  ],
);

/**
 * The sign-in log (docs/domain.md "Integrity signals"): who signed in, when, from which browser (the SHA-256 of
 * its device cookie) and address, and the team the user was in then. Sessions are deleted when they end; this
 * stays for the retention period, then the worker prunes it.
 */
export const signIns = pgTable(
  "sign_ins",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    teamId: integer("team_id").references(() => teams.id, { onDelete: "set null" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    device: text("device").notNull(),
    address: text("address"),
  },
  (t) => [index("sign_ins_device_idx").on(t.device, t.at), index("sign_ins_user_idx").on(t.userId, t.at), index("sign_ins_at_idx").on(t.at)],
);

/** The thresholds of the integrity signals (one row, as event_settings): an admin sets them on the signals page. */
export const integritySettings = pgTable(
  "integrity_settings",
  {
    id: smallint("id").primaryKey().default(1),
    // Two answers at least this similar (percent, after normalising) make a signal.
    similarityPercent: smallint("similarity_percent").notNull().default(50),
    // An account signed in from at least this many browsers within the sign-in log's retention makes a signal.
    devicesPerAccount: smallint("devices_per_account").notNull().default(4),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("integrity_settings_single_row", sql`${t.id} = 1`),
    check("integrity_settings_similarity", sql`${t.similarityPercent} between 10 and 100`),
    check("integrity_settings_devices", sql`${t.devicesPerAccount} between 2 and 100`),
  ],
);

/**
 * An account's identity at the organisers' OpenID Connect provider (docs/domain.md "Sign-in with the
 * organisers' identity provider"): the provider's issuer and its subject for the person, bound at their first
 * sign-in through it. One identity is one account (issuer + subject), and an account holds at most one identity
 * of an issuer, so a second person at the provider cannot take over an account already bound.
 */
export const oidcIdentities = pgTable(
  "oidc_identities",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("oidc_identities_issuer_subject_key").on(t.issuer, t.subject), uniqueIndex("oidc_identities_user_issuer_key").on(t.userId, t.issuer)],
);
