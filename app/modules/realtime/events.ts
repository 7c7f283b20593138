/**
 * The live events, server to client (docs/domain.md "Live events"). The client sends none.
 * One definition of names and payloads for the emitters (web and worker) and the browser.
 */
import type { StoredTeamStanding } from "../../../db/schema.ts";
import { rankStandings } from "../standings/ranking.ts";

/**
 * A team's standing as the scoreboard shows it; points are numbers with up to 2 decimals. The same
 * shape the database stores for the frozen board (declared there: db/ imports nothing from app/).
 * `version` grows with every recompute of the team: updates are published by several workers after
 * commit, so two for one team can arrive out of order, and a client keeps the newest.
 */
export type TeamStanding = StoredTeamStanding;

/**
 * An announcement, in both languages: the Arabic beside the English (null: none); each browser shows its
 * viewer's (docs/domain.md "Event content in two languages").
 */
export interface AnnouncementEvent {
  id: number;
  title: string;
  content: string;
  titleAr: string | null;
  contentAr: string | null;
  createdAt: string;
}

/** An announcement as a viewer reads it: one language (app/modules/i18n/content.ts picked it). */
export type AnnouncementShown = Omit<AnnouncementEvent, "titleAr" | "contentAr">;

/** An organisers' notification, in both languages as an announcement; a thread's reply has no Arabic of its own. */
export interface NotificationEvent {
  message: string;
  messageAr?: string | null;
  timestamp: string;
}

export interface ThreadReplyEvent extends NotificationEvent {
  threadId: number;
}

/** The first solve of a flag challenge (docs/domain.md "First blood"): names only, never a flag. */
export interface FirstBloodEvent {
  challengeId: number;
  challenge: string;
  /** The challenge's Arabic title (null: none): each browser names it in its viewer's language. */
  challengeAr: string | null;
  category: "AI" | "CS" | "PS" | "GD";
  team: string;
  at: string;
}

export interface RequestEvent {
  id: number;
  kind: "mentor" | "needs" | "question";
  message: string;
  team: string | null;
  user: string | null;
  createdAt: string;
}

export interface ServerToClientEvents {
  "teams:update": (team: TeamStanding) => void;
  /**
   * Several teams' standings at once, each taken as a `teams:update`: every solver of a dynamic challenge whose
   * value fell (`challengeId`, `value`: the challenge and its value now; null for another cause).
   */
  "teams:batch": (batch: { teams: TeamStanding[]; challengeId: number | null; value: number | null }) => void;
  /** The whole board changed (freeze, unfreeze, rebuild): re-read it. */
  "standings:refresh": () => void;
  /**
   * This web process lost Redis for a while, so events may have been missed although the socket stayed
   * open: re-read the page's data, exactly as after a reconnect. Sent by the web process to its own sockets.
   */
  resync: () => void;
  /** This socket's sign-in session has ended (logout elsewhere, an admin, a change to the account): the server disconnects it. */
  "session:ended": () => void;
  new_announcement: (announcement: AnnouncementEvent) => void;
  announcement: (announcement: AnnouncementEvent) => void;
  notification: (notification: NotificationEvent) => void;
  "request:new": (request: RequestEvent) => void;
  /** Organisers and the thread's team: a thread moved; re-read the queue or the team's threads. */
  "thread:changed": (thread: { id: number }) => void;
  /** The thread's team: an organiser answered (the popup shows it apart from the organisers' notification). */
  "thread:reply": (reply: ThreadReplyEvent) => void;
  /**
   * A flag challenge's first solve: a popup and a chime, as a notification (changes no score). While the
   * board is frozen, participants get it only when it is lifted.
   */
  first_blood: (event: FirstBloodEvent) => void;
  /** Judges and admins: a submission was sent or updated, or a score saved; re-read the judging queue. */
  "judging:changed": () => void;
  /** A prediction challenge's file was scored or refused, or its scores revealed: re-read its pages (no score in it). */
  "predictions:changed": (event: { challengeId: number }) => void;
  /** One of a team's code runs moved (queued, compiling, running test n of m, judged): its pages re-read (no verdict in it). */
  "runs:changed": (event: { challengeId: number }) => void;
  /** Admins: the platform failed to judge a run of the challenge (a judge error); their dashboard's alert re-reads. */
  "runs:judge-error": (event: { challengeId: number }) => void;
}

export type ServerEventName = keyof ServerToClientEvents;

/** Applies one live update to a board: replaces (or adds) the team, re-sorts, renumbers ranks. An update older than what the board holds changes nothing. */
export function applyTeamUpdate(board: readonly TeamStanding[], update: TeamStanding): readonly TeamStanding[] {
  const current = board.find((team) => team.id === update.id);
  if (current && current.version > update.version) return board;
  return rankStandings(board.filter((team) => team.id !== update.id).concat(update));
}

/**
 * The same on a division's board (`division` null: the overall board): a team of the division is placed as
 * above, among the division's teams only; a team that left it (its update names another division, or none)
 * leaves the board and the teams below move up; any other team's update changes nothing.
 */
export function applyTeamUpdateIn(board: readonly TeamStanding[], update: TeamStanding, division: string | null): readonly TeamStanding[] {
  if (division === null || update.division === division) return applyTeamUpdate(board, update);
  const current = board.find((team) => team.id === update.id);
  if (!current || current.version > update.version) return board;
  return rankStandings(board.filter((team) => team.id !== update.id));
}
