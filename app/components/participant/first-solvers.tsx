import { useT } from "~/components/i18n";

const placeKeys: Record<number, string> = { 1: "flag.firstBlood", 2: "flag.second", 3: "flag.third" };

/**
 * A flag challenge's first three solvers (docs/domain.md "First blood"), first blood first: on its card and
 * its page. Team names are text, isolated so a name in another script keeps its own direction.
 */
export function FirstSolvers({ firsts }: { firsts: ReadonlyArray<{ place: number; team: string }> }) {
  const { t } = useT();
  return (
    <ol className="first-solvers list-reset" aria-label={t("flag.firstSolvers")}>
      {firsts.map((first) => (
        <li key={first.place} className={`first-solvers__item first-solvers__item--${first.place}`}>
          <span className="first-solvers__place">{t(placeKeys[first.place] ?? "flag.third")}</span>{" "}
          <bdi>{first.team}</bdi>
        </li>
      ))}
    </ol>
  );
}
