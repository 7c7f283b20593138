/** What the participant screens read: each function queries only what its screen shows. */
import { and, asc, eq, sql } from "drizzle-orm";
import { anyOf } from "../../../db/any-of.ts";
import { challenges, gates, submissions } from "../../../db/schema.ts";
import { getDb, preparedOnce } from "../../infrastructure/db.server.ts";
import type { Role } from "../auth/access.ts";
import { challengeGateJoin, hiddenFromParticipants, isGateOpen, maySeeChallenge } from "../challenges/visibility.server.ts";
import { sharedReadBy, type EventVersions } from "../event-data/shared.server.ts";
import { gateRows } from "../gates/gates.server.ts";
import { readFeedback, type SubmissionFeedback } from "../judging/feedback.server.ts";
import { isSolved } from "../scoring/rules.ts";
import { getSubmissionsWindow } from "../settings/settings.server.ts";

export interface GateHeader {
  number: number;
  title: string;
  description: string;
  opensAt: string;
  open: boolean;
}

export interface ChallengeCard {
  id: number;
  title: string;
  category: string;
  points: number;
  difficulty: string | null;
  solved: boolean;
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
    .select({ id: challenges.id, title: challenges.title, category: challenges.category, points: challenges.points, difficulty: challenges.difficulty, status: challenges.status })
    .from(challenges)
    .where(eq(challenges.wave, wave))
    .orderBy(asc(challenges.id)),
);

/** The team's results on these challenges: read on every gate page, so built once (preparedOnce). */
const teamResultsStatement = preparedOnce((db) =>
  db
    .select({ challengeId: submissions.challengeId, rejected: submissions.rejected, scoreCenti: submissions.scoreCenti })
    .from(submissions)
    .where(and(eq(submissions.teamId, sql.placeholder("teamId")), anyOf(submissions.challengeId, sql.placeholder("challengeIds"))))
    .prepare("gate_team_results"),
);

/** No team has this id: a viewer without a team has no submission. */
const NO_TEAM = -1;

/** A challenge with its gate's opening and the team's submission: read on every challenge page, so built once (preparedOnce). */
const challengeWithSubmissionStatement = preparedOnce((db) =>
  db
    .select({
      id: challenges.id,
      title: challenges.title,
      description: challenges.description,
      category: challenges.category,
      hints: challenges.hints,
      wave: challenges.wave,
      points: challenges.points,
      status: challenges.status,
      attachmentKey: challenges.attachmentKey,
      attachmentName: challenges.attachmentName,
      opensAt: gates.opensAt,
      submissionId: submissions.id,
      submissionText: submissions.text,
      submissionFileName: submissions.fileName,
      submissionFileKey: submissions.fileKey,
      submissionStatus: submissions.status,
      submissionScoreCenti: submissions.scoreCenti,
      submissionRejected: submissions.rejected,
    })
    .from(challenges)
    .innerJoin(gates, challengeGateJoin)
    .leftJoin(submissions, and(eq(submissions.challengeId, challenges.id), eq(submissions.teamId, sql.placeholder("teamId"))))
    .where(eq(challenges.id, sql.placeholder("challengeId")))
    .limit(1)
    .prepare("challenge_with_submission"),
);

/** A gate and, once it is open, its active challenges with the team's solved flags (one query: the team's). */
export async function getGateBoard(wave: number, teamId: number | null, now = new Date(), versions: EventVersions | null = null): Promise<GateBoard | null> {
  const [gate, deadline] = await Promise.all([gateRows(versions).then((rows) => rows.find((row) => row.number === wave)), getSubmissionsWindow(now, versions)]);
  if (!gate) return null;
  const submissionsState = { closesAt: deadline.closesAt, open: deadline.open, timeZone: deadline.timeZone };
  const header: GateHeader = {
    number: gate.number,
    title: gate.title,
    description: gate.description,
    opensAt: gate.opensAt.toISOString(),
    open: isGateOpen(gate.opensAt, now),
  };
  if (!header.open) return { gate: header, challenges: null, solvedPercent: 0, submissions: submissionsState };
  // The board is what a participant sees, whoever looks at it (the same rule as visibleChallengeSql).
  const visible = (await challengesOfWave(wave, versions)).filter((row) => hiddenFromParticipants({ status: row.status, opensAt: gate.opensAt }, now) === null);
  const results =
    teamId === null || visible.length === 0 ? [] : await teamResultsStatement().execute({ teamId, challengeIds: visible.map((row) => row.id) });
  const byChallenge = new Map(results.map((row) => [row.challengeId, row]));
  const cards = visible.map((row) => {
    const submission = byChallenge.get(row.id);
    return {
      id: row.id,
      title: row.title,
      category: row.category,
      points: row.points,
      difficulty: row.difficulty,
      // No submission is never solved.
      solved: submission ? isSolved({ rejected: submission.rejected, scoreCenti: submission.scoreCenti, points: row.points }) : false,
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

export interface ChallengeDetail {
  id: number;
  title: string;
  description: string;
  category: string;
  hints: string | null;
  wave: number;
  hasAttachment: boolean;
  attachmentName: string | null;
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
): Promise<{ challenge: ChallengeDetail; submission: OwnSubmission | null } | null> {
  const teamId = viewer.teamId;
  const [row] = await challengeWithSubmissionStatement().execute({ challengeId, teamId: teamId ?? NO_TEAM });
  if (!row || row.wave === null || !maySeeChallenge(viewer, row, now)) return null;
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
      category: row.category,
      hints: row.hints,
      wave: row.wave,
      hasAttachment: Boolean(row.attachmentKey),
      attachmentName: row.attachmentName,
    },
    submission:
      row.submissionId === null
        ? null
        : {
            id: row.submissionId,
            text: row.submissionText,
            fileName: row.submissionFileName,
            hasFile: Boolean(row.submissionFileKey),
            status: row.submissionStatus ?? "pending",
            feedback,
          },
  };
}
