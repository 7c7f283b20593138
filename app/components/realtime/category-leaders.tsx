import { categoryLabel } from "~/components/participant/category";
import type { CategoryLeaders } from "~/modules/standings/category-leaders";
import { categories } from "~/modules/scoring/rules";
import { useT } from "~/components/i18n";
import { useFormats } from "./format";
import { isMedalPlace, Medal } from "./medal";

/**
 * The top 3 of each category beside the overall board (ranked by `categoryLeaders`,
 * app/modules/standings/category-leaders.ts), with the overall board's medals. The page passes the places
 * the freeze lets its viewer see (`leadersOfBoard`).
 */
export function CategoryLeadersPanel({ leaders, ownTeamId, frozen }: { leaders: CategoryLeaders; ownTeamId: number | null; frozen: boolean }) {
  const { t } = useT();
  const format = useFormats();
  return (
    <section className="category-leaders" aria-labelledby="category-leaders-title">
      <h2 id="category-leaders-title" className="category-leaders__title">
        {t("leaders.title")}
        {frozen ? t("scoreboard.frozenSuffix") : ""}
      </h2>
      <div className="category-leaders__grid">
        {categories.map((category) => {
          const label = categoryLabel(category, t);
          return (
            <section key={category} className="category-leaders__card" aria-label={t("leaders.top3In", { category: label })}>
              <h3 className="category-leaders__category">
                <span className="category-leaders__key">{category}</span>
                {label !== category ? <span className="category-leaders__label">{label}</span> : null}
              </h3>
              {leaders[category].length === 0 ? (
                <p className="category-leaders__empty">{t("leaders.noPoints")}</p>
              ) : (
                <ol className="category-leaders__list">
                  {leaders[category].map((leader) => {
                    const own = leader.id === ownTeamId;
                    return (
                      <li
                        key={leader.id}
                        className={["category-leaders__entry", own ? "category-leaders__entry--own" : null, `category-leaders__entry--place-${leader.place}`]
                          .filter(Boolean)
                          .join(" ")}
                      >
                        <span className="category-leaders__place ltr">{isMedalPlace(leader.place) ? <Medal place={leader.place} /> : leader.place}</span>
                        <span className="category-leaders__team">
                          <bdi className="category-leaders__team-name">{leader.name}</bdi>
                          {own ? <span className="scoreboard__you"> {t("scoreboard.yourTeam")}</span> : null}
                        </span>
                        <span className="category-leaders__points">{format.points(leader.points)}</span>
                      </li>
                    );
                  })}
                </ol>
              )}
            </section>
          );
        })}
      </div>
    </section>
  );
}
