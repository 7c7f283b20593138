import type { ReactNode } from "react";
import { useT } from "~/components/i18n";
import { useFormats } from "~/components/realtime/format";
import { isMedalPlace, Medal } from "~/components/realtime/medal";
import { useMarkupCache } from "~/hooks/markup-cache";
import type { TeamStanding } from "~/modules/realtime/events";

type Category = keyof TeamStanding["categories"];

/** Order AI, CS, PS, GD; labels as docs/domain.md names the categories (AI as it is). */
export const boardCategories: ReadonlyArray<{ key: Category; title: string | null }> = [
  { key: "AI", title: null },
  { key: "CS", title: "challenge.categories.CS" },
  { key: "PS", title: "challenge.categories.PS" },
  { key: "GD", title: "challenge.categories.GD" },
];

/** A team's marked solve (one of a flag challenge's first three: docs/domain.md "First blood"), as the row details list it. */
export interface RowMark {
  place: number;
  challenge: string;
}

/** The board's marks (the page's data: every team's, in the challenges' order) by team. */
export function marksByTeam(marks: ReadonlyArray<RowMark & { teamId: number }>): Map<number, RowMark[]> {
  const byTeam = new Map<number, RowMark[]>();
  for (const { teamId, place, challenge } of marks) {
    const list = byTeam.get(teamId);
    if (list) list.push({ place, challenge });
    else byTeam.set(teamId, [{ place, challenge }]);
  }
  return byTeam;
}

const placeKeys: Record<number, string> = { 1: "flag.firstBlood", 2: "flag.second", 3: "flag.third" };

/**
 * One team's row: medal or rank, name (and "your team"), the categories, solved, total. `marks`: the team's
 * first-three solves, listed in the row's details (a disclosure under its name: works without JavaScript).
 */
export function BoardRow({ team, own, flashing, marks = [] }: { team: TeamStanding; own: boolean; flashing: boolean; marks?: readonly RowMark[] }) {
  const { t } = useT();
  const format = useFormats();
  const cache = useMarkupCache();
  const cells: RowCellsProps = {
    rank: team.rank,
    name: team.name,
    points: boardCategories.map((category) => format.points(team.categories[category.key])),
    solved: team.solvedCount,
    total: format.points(team.totalScore),
    details: marks.length
      ? {
          summary: t("scoreboard.marks", { count: marks.length }),
          firstBloods: marks.filter((mark) => mark.place === 1).length,
          items: marks.map((mark) => ({ place: mark.place, label: t(placeKeys[mark.place] ?? "flag.third"), challenge: mark.challenge })),
        }
      : null,
  };
  const className = [
    "scoreboard__row",
    own ? "scoreboard__row--own" : null,
    isMedalPlace(team.rank) ? `scoreboard__row--podium scoreboard__row--place-${team.rank}` : null,
    flashing ? "scoreboard__row--updated" : null,
  ]
    .filter(Boolean)
    .join(" ");
  // On the server, a row that says nothing of the viewer (not the own team's, no translated medal) is the
  // same markup for everyone who sees that team at that rank with those points: rendered once, by its
  // content (app/hooks/markup-cache.ts). The browser renders it as usual, from the same component.
  if (cache && !own && !isMedalPlace(team.rank) && cacheable(cells)) {
    return <tr className={className} dangerouslySetInnerHTML={{ __html: cache.markup(cellsKey(cells), () => <RowCells {...cells} />) }} />;
  }
  return (
    <tr className={className}>
      <RowCells
        {...cells}
        medal={isMedalPlace(team.rank) ? <Medal place={team.rank} /> : null}
        you={own ? <span className="scoreboard__you"> {t("scoreboard.yourTeam")}</span> : null}
      />
    </tr>
  );
}

interface RowCellsProps {
  rank: number;
  name: string;
  /** The categories' points as text, in the order of `boardCategories`. */
  points: string[];
  solved: number;
  total: string;
  /** The row's details: the team's marked solves (null: none, no details). */
  details: { summary: string; firstBloods: number; items: Array<{ place: number; label: string; challenge: string }> } | null;
}

/**
 * The markup cache's key for a row's cells: all of RowCells' props, whatever they are, as JSON, which cannot
 * collide. JSON writes a finite number as React does; NaN and infinities would all be `null` there, so a row
 * with one of those (never seen: a rank and a count are integers) is rendered as usual (`cacheable`).
 */
const cellsKey = (cells: RowCellsProps): string => `board-row${JSON.stringify(cells)}`;
const cacheable = (cells: RowCellsProps) => Number.isFinite(cells.rank) && Number.isFinite(cells.solved);

/**
 * A row's cells, from its props alone (the server keeps their markup by content: BoardRow). It must stay
 * pure: no hook, no `useId`, no context (app/hooks/markup-cache.ts says why).
 */
function RowCells({ rank, name, points, solved, total, details, medal = null, you = null }: RowCellsProps & { medal?: ReactNode; you?: ReactNode }) {
  return (
    <>
      <td className="scoreboard__rank">{medal ?? <span className="scoreboard__position ltr">{rank > 0 ? rank : "—"}</span>}</td>
      <th scope="row" className="scoreboard__team">
        <bdi className="scoreboard__name">{name}</bdi>
        {you}
        <span className="scoreboard__breakdown">
          {boardCategories.map((category, at) => (
            <span key={category.key}>
              {category.key} <span className="ltr">{points[at]}</span>
            </span>
          ))}
        </span>
        {details ? (
          <details className="scoreboard__details">
            <summary className="scoreboard__marks">
              {details.firstBloods > 0 ? <span className="scoreboard__blood" aria-hidden="true" /> : null}
              {details.summary}
            </summary>
            <ul className="scoreboard__marks-list list-reset">
              {details.items.map((item, at) => (
                <li key={at} className={`first-solvers__item first-solvers__item--${item.place}`}>
                  <span className="first-solvers__place">{item.label}</span> <bdi>{item.challenge}</bdi>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </th>
      {boardCategories.map((category, at) => (
        <td key={category.key} className="num scoreboard__cat">
          {points[at]}
        </td>
      ))}
      <td className="num">{solved}</td>
      <td className="num scoreboard__total">{total}</td>
    </>
  );
}
