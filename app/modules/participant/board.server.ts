/** What the participant screens read: each function queries only what its screen shows. */
import { asc, eq, sql, type Placeholder, type SQL } from "drizzle-orm";
import { jsonDate, jsonObjectSql, oneRow, parsedJson, scalarSubquery } from "../../../db/json.ts";
import { challenges, gates, submissions, teamAnswers } from "../../../db/schema.ts";
import { getDb, preparedOnce } from "../../infrastructure/db.server.ts";
import type { Role } from "../auth/access.ts";
import { challengeGateJoin, hasPrerequisitesSql, hiddenFromParticipants, isGateOpen, maySeeChallenge, missingPrerequisites, missingPrerequisitesSql, type PrerequisiteTitle } from "../challenges/visibility.server.ts";
import { sharedReadBy, type EventVersions } from "../event-data/shared.server.ts";
import { gateRows } from "../gates/gates.server.ts";
import { CONTENT_TEXTS, inLanguage, isolated, shownIn } from "../i18n/content.ts";
import type { Language } from "../i18n/i18n.ts";
import { shownFileNameOrNull } from "../file-names.ts";
import { teamFlagState } from "../flags/guess.server.ts";
import { readFeedback, type SubmissionFeedback } from "../judging/feedback.server.ts";
import { isSolved } from "../scoring/rules.ts";
import { flagFiguresFor } from "../flags/figures.server.ts";
import { teamHintsOf, teamHintsSql, type TeamHint } from "../flags/hints.server.ts";
import { STAFF_READERS } from "../auth/access.ts";
import { getSubmissionsWindow } from "../settings/settings.server.ts";

type Challenge = typeof challenges.$inferSelect;
type Submission = typeof submissions.$inferSelect;

/** A gate as its page heads it, its texts in English and the Arabic beside them (docs/domain.md "Event content in two languages"). */
export interface GateHeader {
  number: number;
  title: string;
  description: string;
  titleAr: string | null;
  descriptionAr: string | null;
  opensAt: string;
  open: boolean;
}

export interface ChallengeCard {
  id: number;
  title: string;
  titleAr: string | null;
  category: string;
  points: number;
  difficulty: string | null;
  checking: Challenge["checking"];
  solved: boolean;
  /** The prerequisites the team has not solved yet, by title (null: one not open yet), or null: open to it. */
  locked: PrerequisiteTitle[] | null;
}

export interface GateBoard {
  gate: GateHeader;
  /** Null while the gate is closed: a closed gate never lists its challenges. */
  challenges: ChallengeCard[] | null;
  solvedPercent: number;
  /** The event's submission deadline (the same for every gate). */
  submissions: { closesAt: string | null; open: boolean; timeZone: string };
}

/**
 * A gate's challenges as stored (every status, by id), read once per version of the challenges when given
 * the request's (app/modules/event-data/shared.server.ts); who may see which is decided per request.
 */
const challengesOfWave = sharedReadBy(["challenges"], (wave: number) =>
  getDb()
    .select({
      id: challenges.id,
      title: challenges.title,
      titleAr: challenges.titleAr,
      category: challenges.category,
      points: challenges.points,
      difficulty: challenges.difficulty,
      status: challenges.status,
      checking: challenges.checking,
      releaseAfterMinutes: challenges.releaseAfterMinutes,
      hasPrerequisites: hasPrerequisitesSql,
    })
    .from(challenges)
    .where(eq(challenges.wave, wave))
    .orderBy(asc(challenges.id)),
);

/** One of the team's results, as the gate page reads it. */
export interface TeamResult {
  challengeId: number;
  rejected: boolean;
  scoreCenti: number | null;
  /** A flag solve (solved whatever its value). */
  flag: boolean;
}

/**
 * The team's results on a gate's challenges (judged submissions and flag solves: `team_answers`), as one JSON column (a scalar subquery): the gate page reads
 * them alone (below) or with the viewer's badges (app/modules/participant/badges.server.ts), the same SQL.
 * By the challenges' wave, not by the ids the page shows: read with the badges, they are of the same
 * snapshot as the versions the page's challenge list is kept by. Read alone, a challenge moved to another
 * gate between the two reads shows as not solved for that one load.
 */
export function gateResultsSql(teamId: Placeholder, wave: Placeholder): SQL {
  return scalarSubquery(sql`select coalesce(json_agg(${jsonObjectSql({ challengeId: teamAnswers.challengeId, rejected: teamAnswers.rejected, scoreCenti: teamAnswers.scoreCenti, flag: teamAnswers.flag })}), '[]'::json)
    from ${teamAnswers} inner join ${challenges} on ${challenges.id} = ${teamAnswers.challengeId}
    where ${teamAnswers.teamId} = ${teamId} and ${challenges.wave} = ${wave}`);
}

export function parseGateResults(column: unknown): TeamResult[] {
  return (parsedJson(column) as TeamResult[] | null) ?? [];
}

/** Read on every gate page without the badges: built once (preparedOnce). */
const teamResultsStatement = preparedOnce((db) =>
  db
    .select({ rows: gateResultsSql(sql.placeholder("teamId"), sql.placeholder("wave")) })
    .from(oneRow())
    .prepare("gate_team_results"),
);

/** No team has this id: a viewer without a team has no submission. */
const NO_TEAM = -1;

/** A challenge with its gate's opening and the team's submission (null if no such challenge in a gate), as the challenge page reads it. */
export interface ChallengeRow {
  id: number;
  title: string;
  description: string;
  titleAr: string | null;
  descriptionAr: string | null;
  category: Challenge["category"];
  hints: string | null;
  wave: number | null;
  points: number;
  status: Challenge["status"];
  attachmentKey: string | null;
  attachmentName: string | null;
  checking: Challenge["checking"];
  opensAt: Date;
  submissionId: number | null;
  submissionText: string | null;
  submissionFileName: string | null;
  submissionFileKey: string | null;
  submissionStatus: Submission["status"] | null;
  submissionScoreCenti: number | null;
  submissionRejected: boolean | null;
  /** teamHintsSql's column, unparsed. */
  paidHints: unknown;
  releaseAfterMinutes: number | null;
  /** missingPrerequisitesSql's column: titles (null: a prerequisite not open yet). */
  locked: PrerequisiteTitle[];
}

/** The challenge page's row as one JSON column (null: none); read alone (below) or with the badges. */
export function challengeWithSubmissionSql(challengeId: Placeholder, teamId: Placeholder): SQL {
  const row = jsonObjectSql({
    id: challenges.id,
    title: challenges.title,
    description: challenges.description,
    titleAr: challenges.titleAr,
    descriptionAr: challenges.descriptionAr,
    category: challenges.category,
    hints: challenges.hints,
    wave: challenges.wave,
    points: challenges.points,
    status: challenges.status,
    attachmentKey: challenges.attachmentKey,
    attachmentName: challenges.attachmentName,
    checking: challenges.checking,
    opensAt: gates.opensAt,
    submissionId: submissions.id,
    submissionText: submissions.text,
    submissionFileName: submissions.fileName,
    submissionFileKey: submissions.fileKey,
    submissionStatus: submissions.status,
    submissionScoreCenti: submissions.scoreCenti,
    submissionRejected: submissions.rejected,
    // The team's view of its hints that cost points (a locked one's text is null here already).
    paidHints: teamHintsSql(challenges.id, teamId),
    releaseAfterMinutes: challenges.releaseAfterMinutes,
    // The prerequisites the team has not solved (the visibility rule's SQL form).
    locked: missingPrerequisitesSql(challenges.id, teamId),
  });
  return scalarSubquery(sql`select ${row} from ${challenges}
    inner join ${gates} on ${challengeGateJoin}
    left join ${submissions} on ${submissions.challengeId} = ${challenges.id} and ${submissions.teamId} = ${teamId}
    where ${challenges.id} = ${challengeId} limit 1`);
}

export function parseChallengeWithSubmission(column: unknown): ChallengeRow | null {
  const row = parsedJson(column) as (Omit<ChallengeRow, "opensAt"> & { opensAt: string }) | null;
  return row ? { ...row, opensAt: jsonDate(row.opensAt) } : null;
}

/** Read on every challenge page without the badges: built once (preparedOnce). */
const challengeWithSubmissionStatement = preparedOnce((db) =>
  db
    .select({ row: challengeWithSubmissionSql(sql.placeholder("challengeId"), sql.placeholder("teamId")) })
    .from(oneRow())
    .prepare("challenge_with_submission"),
);

/** A gate and, once it is open, its active challenges with the team's solved flags (one query: the team's). */
export async function getGateBoard(
  wave: number,
  teamId: number | null,
  now = new Date(),
  versions: EventVersions | null = null,
  /** The team's results on this gate as the request already read them (with the badges); undefined: read here. */
  known?: TeamResult[],
): Promise<GateBoard | null> {
  const [gate, deadline] = await Promise.all([gateRows(versions).then((rows) => rows.find((row) => row.number === wave)), getSubmissionsWindow(now, versions)]);
  if (!gate) return null;
  const submissionsState = { closesAt: deadline.closesAt, open: deadline.open, timeZone: deadline.timeZone };
  const header: GateHeader = {
    number: gate.number,
    title: gate.title,
    description: gate.description,
    titleAr: gate.titleAr,
    descriptionAr: gate.descriptionAr,
    opensAt: gate.opensAt.toISOString(),
    open: isGateOpen(gate.opensAt, now),
  };
  if (!header.open) return { gate: header, challenges: null, solvedPercent: 0, submissions: submissionsState };
  // The board is what a participant sees, whoever looks at it (the same rule as visibleChallengeSql).
  const visible = (await challengesOfWave(wave, versions)).filter(
    (row) => hiddenFromParticipants({ status: row.status, opensAt: gate.opensAt, releaseAfterMinutes: row.releaseAfterMinutes }, now) === null,
  );
  // The team's locks, read only when a challenge of the gate has prerequisites (most gates: no statement).
  const withPrerequisites = visible.filter((row) => row.hasPrerequisites).map((row) => row.id);
  const locked = teamId === null || withPrerequisites.length === 0 ? new Map<number, PrerequisiteTitle[]>() : await missingPrerequisites(getDb(), teamId, withPrerequisites);
  const results =
    teamId === null || visible.length === 0
      ? []
      : (known ?? parseGateResults((await teamResultsStatement().execute({ teamId, wave }))[0]?.rows));
  const byChallenge = new Map(results.map((row) => [row.challengeId, row]));
  const cards = visible.map((row) => {
    const submission = byChallenge.get(row.id);
    return {
      id: row.id,
      title: row.title,
      titleAr: row.titleAr,
      category: row.category,
      points: row.points,
      difficulty: row.difficulty,
      checking: row.checking,
      // No submission is never solved.
      solved: submission ? isSolved({ rejected: submission.rejected, scoreCenti: submission.scoreCenti, points: row.points, flag: submission.flag }) : false,
      // The prerequisites the team has not solved yet (null: open to it).
      locked: locked.get(row.id) ?? null,
    };
  });
  const solved = cards.filter((card) => card.solved).length;
  return {
    gate: header,
    challenges: cards,
    solvedPercent: cards.length ? Math.round((solved / cards.length) * 100) : 0,
    submissions: submissionsState,
  };
}

/**
 * The board with its flag challenges' figures (value now, solves, first three solvers: app/modules/flags/
 * figures.server.ts), as the viewer may see them; a judged challenge's card has none.
 */
export async function withFlagFigures(board: GateBoard, viewer: { role: Role }) {
  const flagged = (board.challenges ?? []).filter((card) => card.checking === "flag").map((card) => card.id);
  const figures = await flagFiguresFor(flagged, viewer);
  return {
    ...board,
    challenges: board.challenges?.map((card) => ({ ...card, flag: figures.get(card.id) ?? null })) ?? null,
  };
}

export interface ChallengeDetail {
  id: number;
  title: string;
  description: string;
  titleAr: string | null;
  descriptionAr: string | null;
  category: string;
  hints: string | null;
  wave: number;
  hasAttachment: boolean;
  attachmentName: string | null;
  /** Judged (a file and/or a text) or checked at once (a flag: docs/domain.md "Flag challenges"). */
  checking: Challenge["checking"];
}

/**
 * What the challenge page shows of a flag challenge for the viewer's team: never an answer, a pattern, a
 * secret or a team's flag (app/modules/flags/guess.server.ts keeps those).
 */
export interface FlagPageState {
  solvedAt: string | null;
  /** Wrong answers the team may still send; null: no maximum. */
  attemptsLeft: number | null;
  maxAttempts: number | null;
  /** Seconds before the next answer is taken (0: at once). */
  waitSeconds: number;
}

export interface OwnSubmission {
  id: number;
  text: string | null;
  fileName: string | null;
  hasFile: boolean;
  status: string;
  /** The judging feedback, once the challenge's gate's is published (app/modules/judging/feedback.server.ts); else null. */
  feedback: SubmissionFeedback | null;
}

/** The challenge page's data (getChallengeForSubmission), both languages. */
export interface ChallengePage {
  challenge: ChallengeDetail;
  submission: OwnSubmission | null;
  flag: FlagPageState | null;
  paidHints: TeamHint[];
  locked: PrerequisiteTitle[] | null;
}

/** A locked challenge's prerequisites as a viewer of `language` reads them, each isolated in the sentence that lists them (null: not open yet). */
export function prerequisitesIn(locked: readonly PrerequisiteTitle[], language: Language): Array<string | null> {
  return locked.map((prerequisite) => (prerequisite === null ? null : isolated(inLanguage(language, prerequisite.title, prerequisite.titleAr))));
}

/** A gate board as a viewer of `language` reads it: one language (app/modules/i18n/content.ts). */
export function gateBoardIn<B extends GateBoard>(board: B, language: Language) {
  return {
    ...board,
    gate: shownIn(board.gate, language, CONTENT_TEXTS.gate),
    challenges: board.challenges?.map((card) => ({ ...shownIn(card, language, ["title"]), locked: card.locked && prerequisitesIn(card.locked, language) })) ?? null,
  };
}

/** The challenge page as a viewer of `language` reads it: one language. */
export function challengePageIn(page: ChallengePage, language: Language) {
  return { ...page, challenge: shownIn(page.challenge, language, CONTENT_TEXTS.challenge), locked: page.locked && prerequisitesIn(page.locked, language) };
}

/**
 * A challenge in a gate, if the viewer may see it (app/modules/challenges/visibility.server.ts); null
 * otherwise (the route answers 404). Also the team's submission, with its judging feedback once published.
 */
export async function getChallengeForSubmission(
  challengeId: number,
  viewer: { role: Role; teamId: number | null },
  now = new Date(),
  /** The event data's versions the request read: the published feedback gates are then not read again. */
  versions: EventVersions | null = null,
  /** The row as the request already read it for this viewer's team (with the badges); undefined: read here. */
  known?: ChallengeRow | null,
): Promise<ChallengePage | null> {
  const row =
    known !== undefined
      ? known
      : parseChallengeWithSubmission((await challengeWithSubmissionStatement().execute({ challengeId, teamId: viewer.teamId ?? NO_TEAM }))[0]?.row);
  if (!row || row.wave === null || !maySeeChallenge(viewer, row, now)) return null;
  // Locked for the team (its prerequisites not solved): its title and what it requires, nothing else.
  if (!STAFF_READERS.includes(viewer.role) && viewer.teamId !== null && row.locked.length > 0) {
    return {
      challenge: { id: row.id, title: row.title, description: "", titleAr: row.titleAr, descriptionAr: null, category: row.category, hints: null, wave: row.wave, hasAttachment: false, attachmentName: null, checking: row.checking },
      flag: null,
      paidHints: [],
      submission: null,
      locked: row.locked,
    };
  }
  const flag = row.checking === "flag" && viewer.teamId !== null ? await flagPageState(viewer.teamId, row.id, now) : null;
  const feedback =
    row.submissionId === null
      ? null
      : await readFeedback({
          submissionId: row.submissionId,
          challengeId: row.id,
          wave: row.wave,
          points: row.points,
          scoreCenti: row.submissionScoreCenti,
          rejected: row.submissionRejected ?? false,
        }, versions);
  return {
    challenge: {
      id: row.id,
      title: row.title,
      description: row.description,
      titleAr: row.titleAr,
      descriptionAr: row.descriptionAr,
      category: row.category,
      hints: row.hints,
      wave: row.wave,
      hasAttachment: Boolean(row.attachmentKey),
      attachmentName: shownFileNameOrNull(row.attachmentName),
      checking: row.checking,
    },
    flag,
    paidHints: teamHintsOf(row.paidHints),
    locked: null,
    submission:
      row.submissionId === null
        ? null
        : {
            id: row.submissionId,
            text: row.submissionText,
            fileName: shownFileNameOrNull(row.submissionFileName),
            hasFile: Boolean(row.submissionFileKey),
            status: row.submissionStatus ?? "pending",
            feedback,
          },
  };
}

/** The team's state on a flag challenge, as the page and the API show it (null: not a flag challenge). */
export async function flagPageState(teamId: number, challengeId: number, now = new Date()): Promise<FlagPageState | null> {
  const state = await teamFlagState(teamId, challengeId, now);
  if (!state) return null;
  return {
    solvedAt: state.solvedAt?.toISOString() ?? null,
    attemptsLeft: state.attemptsLeft,
    maxAttempts: state.maxAttempts,
    waitSeconds: state.waitSeconds,
  };
}
