import { useT } from "~/components/i18n";
import { useFormats } from "~/components/realtime/format";
import { isMedalPlace, Medal } from "~/components/realtime/medal";
import type { TeamStanding } from "~/modules/realtime/events";

type Category = keyof TeamStanding["categories"];

/** Order AI, CS, PS, GD; labels as docs/domain.md names the categories (AI as it is). */
export const boardCategories: ReadonlyArray<{ key: Category; title: string | null }> = [
  { key: "AI", title: null },
  { key: "CS", title: "challenge.categories.CS" },
  { key: "PS", title: "challenge.categories.PS" },
  { key: "GD", title: "challenge.categories.GD" },
];

/** One team's row: medal or rank, name (and "your team"), the categories, solved, total. */
export function BoardRow({ team, own, flashing }: { team: TeamStanding; own: boolean; flashing: boolean }) {
  const { t } = useT();
  const format = useFormats();
  const className = [
    "scoreboard__row",
    own ? "scoreboard__row--own" : null,
    isMedalPlace(team.rank) ? `scoreboard__row--podium scoreboard__row--place-${team.rank}` : null,
    flashing ? "scoreboard__row--updated" : null,
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <tr className={className}>
      <td className="scoreboard__rank">
        {isMedalPlace(team.rank) ? <Medal place={team.rank} /> : <span className="scoreboard__position ltr">{team.rank > 0 ? team.rank : "—"}</span>}
      </td>
      <th scope="row" className="scoreboard__team">
        <bdi className="scoreboard__name">{team.name}</bdi>
        {own ? <span className="scoreboard__you"> {t("scoreboard.yourTeam")}</span> : null}
        <span className="scoreboard__breakdown">
          {boardCategories.map((category) => (
            <span key={category.key}>
              {category.key} <span className="ltr">{format.points(team.categories[category.key])}</span>
            </span>
          ))}
        </span>
      </th>
      {boardCategories.map((category) => (
        <td key={category.key} className="num scoreboard__cat">
          {format.points(team.categories[category.key])}
        </td>
      ))}
      <td className="num">{team.solvedCount}</td>
      <td className="num scoreboard__total">{format.points(team.totalScore)}</td>
    </tr>
  );
}
