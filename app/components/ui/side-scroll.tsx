import { createContext, useContext, useEffect, useRef, useState, type HTMLAttributes, type ReactNode } from "react";
import { useT } from "~/components/i18n";

/**
 * A table's box (`.table-wrap`). It is the container its columns' priorities are measured against
 * (`data-priority` on a cell, docs/screens.md): below ~48rem priority-3 columns drop, below ~26rem
 * priority-2 ones, their values shown as lines under the row's first cell (`<Folded>`). When the table is still
 * wider than its box, a "More to the side" cue says so above it (measured once JavaScript runs, and on resize).
 */
export function SideScroll({ children, className, roomy = false, ...rest }: HTMLAttributes<HTMLDivElement> & { roomy?: boolean }) {
  const { t } = useT();
  const box = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState(false);
  const [dropped, setDropped] = useState<Dropped>(NONE_DROPPED);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      setMore(element.scrollWidth - element.clientWidth > 1);
      // The container queries' thresholds (app/styles/app.css), in this page's rem.
      const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      const width = element.clientWidth;
      setDropped((was) => {
        const now = { 3: width <= (roomy ? ROOMY_PRIORITY_3_REM : 48) * rem, 2: width <= 26 * rem };
        return was[2] === now[2] && was[3] === now[3] ? was : now;
      });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [roomy]);
  return (
    <div className="side-scroll">
      {more ? (
        <p className="side-scroll__cue">
          {t("common.moreToTheSide")} <span className="side-scroll__arrow" aria-hidden="true">→</span>
        </p>
      ) : null}
      <div ref={box} className={["table-wrap", roomy ? "table-wrap--roomy" : null, className].filter(Boolean).join(" ")} {...rest}>
        <DroppedColumns.Provider value={dropped}>{children}</DroppedColumns.Provider>
      </div>
    </div>
  );
}

export interface FoldedLine {
  label: string;
  value: ReactNode;
  /** The priority of the column it stands for: shown when that column is dropped. */
  priority: 2 | 3;
}

/**
 * A table of many wide columns (`roomy`: the judges' Submissions, whose form must stay on screen) drops its
 * priority-3 columns below this width of its box, not 48rem: on a laptop too (app/styles/app.css, the same figure).
 */
const ROOMY_PRIORITY_3_REM = 68;

/** Which priorities' columns the table's box drops, as measured once the page runs (none in the server's render). */
type Dropped = { 2: boolean; 3: boolean };
const NONE_DROPPED: Dropped = { 2: false, 3: false };
const DroppedColumns = createContext<Dropped>(NONE_DROPPED);

/**
 * The values of a row's dropped columns, as short labelled lines under its first cell. With JavaScript, only the
 * lines of the columns its table drops are in the page (a value is never there twice, for a screen reader or a
 * search of the page); without it, every line is written inside <noscript> and the container queries show the
 * dropped columns' ones.
 */
export function Folded({ lines }: { lines: ReadonlyArray<FoldedLine | null | false | undefined> }) {
  const dropped = useContext(DroppedColumns);
  const shown = lines.filter((line): line is FoldedLine => Boolean(line));
  if (shown.length === 0) return null;
  const list = (of: FoldedLine[]) => (
    <dl className="table-fold">
      {of.map((line) => (
        <div key={line.label} data-fold={line.priority}>
          <dt>{line.label}</dt> <dd>{line.value}</dd>
        </div>
      ))}
    </dl>
  );
  const live = shown.filter((line) => dropped[line.priority]);
  return (
    <>
      <noscript>{list(shown)}</noscript>
      {live.length > 0 ? list(live) : null}
    </>
  );
}
