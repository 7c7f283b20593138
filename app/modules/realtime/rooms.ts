import type { Role } from "../auth/access.ts";

/** Socket.IO rooms (docs/domain.md): one per role (participants, judges, admins, mentors) and one per team. */
export const rooms = {
  participants: "participants",
  judges: "judges",
  admins: "admins",
  mentors: "mentors",
  team: (teamId: number) => `team:${teamId}`,
} as const;

const roleRooms: Record<Role, string> = { admin: rooms.admins, judge: rooms.judges, participant: rooms.participants, mentor: rooms.mentors };

/** The room every socket of a role joins. */
export function roomOfRole(role: Role): string {
  return roleRooms[role];
}

/** The rooms a user's sockets belong in: their role's, and their team's. */
export function roomsOf(user: { role: Role; teamId: number | null }): string[] {
  const joined = [roomOfRole(user.role)];
  if (user.teamId !== null) joined.push(rooms.team(user.teamId));
  return joined;
}
