/** Socket.IO rooms (docs/domain.md): participants, judges, admins and one per team. */
export const rooms = {
  participants: "participants",
  judges: "judges",
  admins: "admins",
  team: (teamId: number) => `team:${teamId}`,
} as const;
