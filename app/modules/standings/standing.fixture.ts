/** A team's standing for the unit tests of boards: 0 points in categories but AI, rank 0, version 1 unless given. */
import type { TeamStanding } from "../realtime/events";

export function standingOf(over: Pick<TeamStanding, "id" | "totalScore"> & Partial<TeamStanding>): TeamStanding {
  return {
    name: `T${over.id}`,
    categories: { AI: over.totalScore, CS: 0, PS: 0, GD: 0 },
    solvedCount: 0,
    rank: 0,
    reachedAt: "2026-01-01T10:00:00.000Z",
    version: 1,
    division: null,
    ...over,
  };
}
