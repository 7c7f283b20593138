import { CHART_HEIGHT, CHART_WIDTH, chartGeometry, type ScoreChart as ScoreChartData } from "~/modules/standings/chart";
import { useT } from "~/components/i18n";
import { useFormats } from "./format";

/**
 * Ten hues far apart on the wheel, light enough for the night background (contrast ≥ 3:1 against it);
 * the legend repeats each one beside the team's name, so no line relies on colour alone.
 */
const LINE_COLOURS = ["#5ee1ff", "#ffd166", "#ff7eb6", "#8cff98", "#c3a6ff", "#ff9f5a", "#7fb2ff", "#f4f1de", "#4fe3c1", "#ff6b6b"];

/**
 * The top 10 teams' points over time (beyond the original platform: CTFd and rCTF boards have one). A plain SVG
 * drawn from the loader's data, so it is there without JavaScript; the page extends the data live.
 * The lines stretch with the box (non-scaling strokes); the labels are HTML, so they stay readable
 * on a phone. The table above it stays the accessible source of the numbers.
 */
export function ScoreChart({ chart, timeZone, ownTeamId, frozenNote }: {
  chart: ScoreChartData;
  timeZone: string;
  ownTeamId: number | null;
  /** Set when a participant sees other teams stopped at the freeze. */
  frozenNote?: string;
}) {
  const { t } = useT();
  const format = useFormats();
  const { maxPoints, paths } = chartGeometry(chart);
  const start = new Date(chart.from).toISOString();
  const end = new Date(chart.until).toISOString();
  const middle = new Date((chart.from + chart.until) / 2).toISOString();
  return (
    <figure className="score-chart card" aria-labelledby="score-chart-title">
      <figcaption id="score-chart-title" className="score-chart__title">
        {t("chart.title", { count: chart.series.length || 10 })}
      </figcaption>
      {chart.series.length === 0 ? (
        <p className="score-chart__empty muted">{t("chart.empty")}</p>
      ) : (
        <>
          <div className="score-chart__plot">
            <span className="score-chart__y score-chart__y--max">{format.points(maxPoints)}</span>
            <span className="score-chart__y score-chart__y--mid">{format.points(maxPoints / 2)}</span>
            <span className="score-chart__y score-chart__y--zero">0</span>
            <svg
              className="score-chart__svg"
              viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
              preserveAspectRatio="none"
              role="img"
              aria-label={t("chart.label", { count: chart.series.length, from: format.clockTime(start, timeZone), to: format.clockTime(end, timeZone) })}
            >
              <g className="score-chart__grid" aria-hidden="true">
                {[0, 0.25, 0.5, 0.75, 1].map((share) => (
                  <line key={share} x1="0" x2={CHART_WIDTH} y1={share * CHART_HEIGHT} y2={share * CHART_HEIGHT} />
                ))}
              </g>
              {chart.series.map((series, index) => (
                <path
                  key={series.teamId}
                  d={paths[index]}
                  className={series.teamId === ownTeamId ? "score-chart__line score-chart__line--own" : "score-chart__line"}
                  stroke={LINE_COLOURS[index % LINE_COLOURS.length]}
                  data-team={series.name}
                />
              ))}
            </svg>
            <div className="score-chart__x" aria-hidden="true">
              <time dateTime={start}>{format.clockTime(start, timeZone)}</time>
              <time dateTime={middle}>{format.clockTime(middle, timeZone)}</time>
              <time dateTime={end}>{format.clockTime(end, timeZone)}</time>
            </div>
          </div>
          <ol className="score-chart__legend list-reset">
            {chart.series.map((series, index) => (
              <li key={series.teamId} className={series.teamId === ownTeamId ? "score-chart__key score-chart__key--own" : "score-chart__key"}>
                <span className="score-chart__swatch" style={{ background: LINE_COLOURS[index % LINE_COLOURS.length] }} aria-hidden="true" />
                <bdi className="score-chart__name">{series.name}</bdi>
              </li>
            ))}
          </ol>
          {frozenNote ? <p className="score-chart__note muted">{frozenNote}</p> : null}
        </>
      )}
    </figure>
  );
}
