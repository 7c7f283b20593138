/**
 * A small SVG line chart for the soak run (no plotting dependency): one panel per measure (RSS, heap),
 * one line per process, minutes along x, MB up y. Gaps (a process restarting) break the line.
 */

export interface PlotSeries {
  name: string;
  /** [minute, MB] points in time order; null where the process had no sample. */
  points: Array<[number, number | null]>;
}

export interface PlotPanel {
  title: string;
  series: PlotSeries[];
}

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
const WIDTH = 900;
const PANEL_HEIGHT = 260;
const MARGIN = { left: 60, right: 150, top: 34, bottom: 36 };

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A round step for about `count` ticks over `span`. */
function tickStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(raw || 1));
  const scaled = raw / magnitude;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * magnitude;
}

function panel(plot: PlotPanel, top: number, maxMinute: number): string {
  const values = plot.series.flatMap((series) => series.points.flatMap(([, value]) => (value === null ? [] : [value])));
  const low = Math.max(0, Math.floor(Math.min(...values) * 0.9));
  const high = Math.ceil(Math.max(...values) * 1.05) || 1;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = PANEL_HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (minute: number) => MARGIN.left + (minute / (maxMinute || 1)) * plotWidth;
  const y = (mb: number) => top + MARGIN.top + plotHeight - ((mb - low) / (high - low || 1)) * plotHeight;
  const parts: string[] = [`<text x="${MARGIN.left}" y="${top + 20}" font-size="14" font-weight="bold">${escape(plot.title)}</text>`];
  const yStep = tickStep(high - low, 5);
  for (let tick = Math.ceil(low / yStep) * yStep; tick <= high; tick += yStep) {
    parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}" stroke="#ddd"/>`);
    parts.push(`<text x="${MARGIN.left - 6}" y="${(y(tick) + 4).toFixed(1)}" font-size="11" text-anchor="end">${+tick.toFixed(1)}</text>`);
  }
  const xStep = tickStep(maxMinute, 10);
  for (let tick = 0; tick <= maxMinute + 1e-9; tick += xStep) {
    parts.push(`<line x1="${x(tick).toFixed(1)}" x2="${x(tick).toFixed(1)}" y1="${top + MARGIN.top}" y2="${top + MARGIN.top + plotHeight}" stroke="#eee"/>`);
    parts.push(`<text x="${x(tick).toFixed(1)}" y="${top + PANEL_HEIGHT - 18}" font-size="11" text-anchor="middle">${+tick.toFixed(1)}</text>`);
  }
  parts.push(`<text x="${MARGIN.left + plotWidth / 2}" y="${top + PANEL_HEIGHT - 4}" font-size="11" text-anchor="middle">minutes</text>`);
  parts.push(`<text x="14" y="${top + MARGIN.top + plotHeight / 2}" font-size="11" transform="rotate(-90 14 ${top + MARGIN.top + plotHeight / 2})" text-anchor="middle">MB</text>`);
  plot.series.forEach((series, index) => {
    const colour = COLOURS[index % COLOURS.length];
    let path = "";
    let pen = false;
    for (const [minute, value] of series.points) {
      if (value === null) {
        pen = false;
        continue;
      }
      path += `${pen ? "L" : "M"}${x(minute).toFixed(1)},${y(value).toFixed(1)}`;
      pen = true;
    }
    parts.push(`<path d="${path}" fill="none" stroke="${colour}" stroke-width="1.5"/>`);
    const legendY = top + MARGIN.top + 14 + index * 18;
    parts.push(`<line x1="${WIDTH - MARGIN.right + 12}" x2="${WIDTH - MARGIN.right + 32}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${colour}" stroke-width="2"/>`);
    parts.push(`<text x="${WIDTH - MARGIN.right + 38}" y="${legendY}" font-size="12">${escape(series.name)}</text>`);
  });
  return parts.join("\n");
}

/** The whole SVG document: the panels one under the other, a caption at the bottom. */
export function soakSvg(panels: readonly PlotPanel[], caption: string): string {
  const maxMinute = Math.max(...panels.flatMap((plot) => plot.series.flatMap((series) => series.points.map(([minute]) => minute))));
  const height = panels.length * PANEL_HEIGHT + 30;
  const body = panels.map((plot, index) => panel(plot, index * PANEL_HEIGHT, maxMinute)).join("\n");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    body,
    `<text x="${MARGIN.left}" y="${height - 10}" font-size="11" fill="#555">${escape(caption)}</text>`,
    `</svg>`,
    "",
  ].join("\n");
}
