/**
 * The top 3 of each category (docs/domain.md "Scoring and standings"), beside the overall board on
 * /scoreboard. Pure and browser-safe: the page ranks the board it holds on every live update.
 *
 * - A category's places go by the team's points in that category, descending; equal points go by the
 *   overall ranking order (`compareStandings`: who reached their total first, then the lower id), so the
 *   places are total and stable, as on the overall board (no shared places).
 * - Only teams with points in the category (above 0) are placed: nobody leads a category with nothing.
 * - Which board is ranked is the frozen-board rule's (`./frozen-view.ts`): a live board as it moves; a
 *   frozen participant's places as they stood at the freeze, their own team's entry showing its live points.
 */
import type { Category } from "../../../db/schema.ts";
import type { TeamStanding } from "../realtime/events.ts";
import { categories } from "../scoring/rules.ts";
import { compareStandings } from "./ranking.ts";

/** How many teams each category shows. */
export const CATEGORY_LEADERS = 3;

export interface CategoryLeader {
  id: number;
  name: string;
  /** The team's points in the category. */
  points: number;
  /** 1 to `CATEGORY_LEADERS`. */
  place: number;
}

export type CategoryLeaders = Record<Category, CategoryLeader[]>;

const centi = (points: number) => Math.round(points * 100);

/** Before `b` in the category: more points, then the overall ranking order. */
function ahead(category: Category, a: TeamStanding, b: TeamStanding): boolean {
  return centi(a.categories[category]) - centi(b.categories[category]) > 0 || (centi(a.categories[category]) === centi(b.categories[category]) && compareStandings(a, b) < 0);
}

/** Each category's first `size` teams, in place order. One pass over the board per category (no sort of the whole board). */
export function categoryLeaders(teams: readonly TeamStanding[], size = CATEGORY_LEADERS): CategoryLeaders {
  const leaders = {} as CategoryLeaders;
  for (const category of categories) {
    const top: TeamStanding[] = [];
    for (const team of teams) {
      if (centi(team.categories[category]) <= 0) continue;
      let at = top.length;
      while (at > 0 && ahead(category, team, top[at - 1])) at -= 1;
      if (at >= size) continue;
      top.splice(at, 0, team);
      if (top.length > size) top.pop();
    }
    leaders[category] = top.map((team, index) => ({ id: team.id, name: team.name, points: team.categories[category], place: index + 1 }));
  }
  return leaders;
}

/** The places kept, the viewer's own team's entries showing its live points (a frozen participant's view). */
export function withOwnPoints(leaders: CategoryLeaders, own: TeamStanding | undefined): CategoryLeaders {
  if (!own) return leaders;
  const next = {} as CategoryLeaders;
  for (const category of categories) {
    next[category] = leaders[category].map((leader) => (leader.id === own.id ? { ...leader, name: own.name, points: own.categories[category] } : leader));
  }
  return next;
}

/**
 * The leaders a page shows from the board it holds. `frozenLeaders` is what the loader sent a frozen
 * participant (the places at the freeze, `leadersAtFreeze`); null for a live board, which is ranked here.
 */
export function leadersOfBoard(teams: readonly TeamStanding[], frozenLeaders: CategoryLeaders | null, ownTeamId: number | null): CategoryLeaders {
  if (frozenLeaders === null) return categoryLeaders(teams);
  return withOwnPoints(frozenLeaders, teams.find((team) => team.id === ownTeamId));
}
