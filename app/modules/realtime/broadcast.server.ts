import { getEmitter as getAnyEmitter } from "../../infrastructure/emitter.server.ts";
import { ownUpdateWhileFrozen, rolesSeeingLiveBoard, type OwnPoints } from "../standings/frozen-view.ts";
import { roomOfRole, rooms } from "./rooms.ts";
import type { AnnouncementEvent, FirstBloodEvent, NotificationEvent, RequestEvent, ServerToClientEvents, TeamStanding, ThreadReplyEvent } from "./events.ts";

/** The emitter, typed with our event catalogue: an event name or payload off the catalogue fails the build. */
const getEmitter = () => getAnyEmitter<ServerToClientEvents>();

/** Everyone with a socket (visitors have none): participants, judges, admins and mentors. */
const everyone = [rooms.participants, rooms.judges, rooms.admins, rooms.mentors];

export function broadcastAnnouncement(announcement: AnnouncementEvent) {
  // The original platform sent both events for the same moment; clients count one (docs/domain.md).
  getEmitter().to(everyone).emit("new_announcement", announcement);
  getEmitter().to(everyone).emit("announcement", announcement);
}

export function broadcastNotification(notification: NotificationEvent) {
  getEmitter().to(everyone).emit("notification", notification);
}

export function broadcastRequest(request: RequestEvent) {
  getEmitter().to([rooms.admins, rooms.mentors]).emit("request:new", request);
}

/**
 * A thread moved (opened, claimed, answered, answered back, closed): the organisers' queue re-reads, and so
 * do the team's pages. No payload beyond its id: who sees what is the loader's business.
 */
export function broadcastThreadChanged(thread: { id: number; teamId: number | null }) {
  const to = [rooms.admins, rooms.mentors, ...(thread.teamId === null ? [] : [rooms.team(thread.teamId)])];
  getEmitter().to(to).emit("thread:changed", { id: thread.id });
}

/**
 * An organiser's reply, to the team's members only, shown by the popup every screen has under its own title
 * (it never replaces the organisers' notification, which the popup keeps until closed).
 */
export function broadcastThreadReply(teamId: number, reply: ThreadReplyEvent) {
  getEmitter().to(rooms.team(teamId)).except([rooms.admins, rooms.judges, rooms.mentors]).emit("thread:reply", reply);
}

/**
 * A team's new standing, to whom the frozen-board rule (app/modules/standings/frozen-view.ts) lets see
 * it: the rooms of the roles that see the live board (everyone while live); while frozen, also the team's
 * own members (its live points, its own points while frozen where they differ, at its frozen rank).
 */
export function broadcastTeamStanding(team: TeamStanding, freeze: { frozen: boolean; frozenRank: number | null; own?: OwnPoints | null }) {
  const liveRooms = rolesSeeingLiveBoard(freeze.frozen).map(roomOfRole);
  getEmitter().to(liveRooms).emit("teams:update", team);
  if (freeze.frozen) getEmitter().to(rooms.team(team.id)).except(liveRooms).emit("teams:update", ownUpdateWhileFrozen(team, freeze.frozenRank, freeze.own ?? null));
}

/**
 * Several teams' new standings in one event (`teams:batch`: a dynamic challenge's value fell for every solver),
 * to the rooms that see the live board; while frozen, each team's own members get its own update as with
 * `broadcastTeamStanding`.
 */
export function broadcastTeamStandings(
  updates: ReadonlyArray<{ team: TeamStanding; frozenRank: number | null; own?: OwnPoints | null }>,
  freeze: { frozen: boolean; about: { challengeId: number; value: number } | null },
) {
  const liveRooms = rolesSeeingLiveBoard(freeze.frozen).map(roomOfRole);
  getEmitter().to(liveRooms).emit("teams:batch", { teams: updates.map(({ team }) => team), challengeId: freeze.about?.challengeId ?? null, value: freeze.about?.value ?? null });
  if (!freeze.frozen) return;
  for (const { team, frozenRank, own } of updates) getEmitter().to(rooms.team(team.id)).except(liveRooms).emit("teams:update", ownUpdateWhileFrozen(team, frozenRank, own ?? null));
}

/** The whole board changed (freeze, unfreeze, rebuild): every client re-reads it. */
export function broadcastStandingsRefresh() {
  getEmitter().to(everyone).emit("standings:refresh");
}

/**
 * Something a judge's queue counts changed (a submission sent or updated, a score saved): judges' and
 * admins' pages re-read their queue and backlog. No payload: who sees what is the loader's business.
 */
export function broadcastJudgingChanged() {
  getEmitter().to([rooms.judges, rooms.admins]).emit("judging:changed");
}

/** One of a team's code runs moved: the team's pages and the staff's (admins and judges see every run) re-read what their viewer may see. */
export function broadcastRunChanged(teamId: number, challengeId: number) {
  getEmitter().to([rooms.team(teamId), rooms.admins, rooms.judges]).emit("runs:changed", { challengeId });
}

/** A run of the challenge failed on the platform's side (a judge error): the admins' alert re-reads (never a team). */
export function broadcastJudgeError(challengeId: number) {
  getEmitter().to(rooms.admins).emit("runs:judge-error", { challengeId });
}

/** A code challenge's checker compiled or failed to: the staff's page for it re-reads (teams never hear of a checker). */
export function broadcastCheckerChanged(challengeId: number) {
  getEmitter().to([rooms.admins, rooms.judges]).emit("runs:changed", { challengeId });
}

/**
 * A team's predictions file was scored or refused: the team's own pages (its result) and the admins' (every file)
 * re-read; when it was scored, the per-challenge leaderboard may move, so the roles that see the live board hear it
 * too (everyone while live; while frozen, admins and judges: a participant's leaderboard then shows other teams'
 * files scored up to the freeze only). Only the challenge's id: never a score or a team (docs/domain.md "Live events").
 */
export function broadcastPredictionsChanged(challengeId: number, change: { teamId: number; scored: boolean; frozen: boolean }) {
  const to = new Set([rooms.admins, rooms.team(change.teamId), ...(change.scored ? rolesSeeingLiveBoard(change.frozen).map(roomOfRole) : [])]);
  getEmitter().to([...to]).emit("predictions:changed", { challengeId });
}

/**
 * A first blood, to whom the frozen-board rule lets see it now: everyone while live; while frozen, the roles
 * that see the live board (the others get it when the freeze is lifted: `broadcastHeldFirstBlood`).
 */
export function broadcastFirstBlood(event: FirstBloodEvent, frozen: boolean) {
  getEmitter().to(rolesSeeingLiveBoard(frozen).map(roomOfRole)).emit("first_blood", event);
}

/** A first blood that fell inside a freeze, to the rooms that did not hear it then (after the unfreeze). */
export function broadcastHeldFirstBlood(event: FirstBloodEvent) {
  const heard = rolesSeeingLiveBoard(true).map(roomOfRole);
  getEmitter().to(everyone).except(heard).emit("first_blood", event);
}
