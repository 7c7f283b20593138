import { getEmitter } from "../../utils/emitter.server.ts";
import { rooms } from "../../utils/rooms.ts";
import type { AnnouncementEvent, NotificationEvent, RequestEvent, TeamStanding } from "./events.ts";

/** Everyone with a socket (visitors have none): participants, judges and admins. */
const everyone = [rooms.participants, rooms.judges, rooms.admins];

export function broadcastAnnouncement(announcement: AnnouncementEvent) {
  // The original platform sent both events for the same moment; clients count one (docs/domain.md).
  getEmitter().to(everyone).emit("new_announcement", announcement);
  getEmitter().to(everyone).emit("announcement", announcement);
}

export function broadcastNotification(notification: NotificationEvent) {
  getEmitter().to(everyone).emit("notification", notification);
}

export function broadcastRequest(request: RequestEvent) {
  getEmitter().to(rooms.admins).emit("request:new", request);
}

/**
 * A team's new standing. While the scoreboard is frozen, participants of other teams get nothing
 * live; the team itself still sees its own points (docs/domain.md), with its frozen rank.
 */
export function broadcastTeamStanding(team: TeamStanding, freeze: { frozen: boolean; frozenRank: number | null }) {
  if (!freeze.frozen) {
    getEmitter().to(everyone).emit("teams:update", team);
    return;
  }
  getEmitter().to([rooms.judges, rooms.admins]).emit("teams:update", team);
  getEmitter()
    .to(rooms.team(team.id))
    .except([rooms.judges, rooms.admins])
    // A team created after the freeze has no frozen rank: 0 (unranked), never its live rank.
    .emit("teams:update", { ...team, rank: freeze.frozenRank ?? 0 });
}

/** The whole board changed (freeze, unfreeze, rebuild): every client re-reads it. */
export function broadcastStandingsRefresh() {
  getEmitter().to(everyone).emit("standings:refresh");
}
