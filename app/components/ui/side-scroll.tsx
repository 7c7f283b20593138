import { useEffect, useRef, useState, type HTMLAttributes, type ReactNode } from "react";
import { useT } from "~/components/i18n";

/**
 * A table's box (`.table-wrap`). It is the container its columns' priorities are measured against
 * (`data-priority` on a cell, docs/screens.md): below ~48rem priority-3 columns drop, below ~26rem
 * priority-2 ones, their values shown as lines under the row's first cell (`<Folded>`). When the table is still
 * wider than its box, a "More to the side" cue says so above it (measured once JavaScript runs, and on resize).
 */
export function SideScroll({ children, className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  const { t } = useT();
  const box = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setMore(element.scrollWidth - element.clientWidth > 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <div className="side-scroll">
      {more ? (
        <p className="side-scroll__cue">
          {t("common.moreToTheSide")} <span className="side-scroll__arrow" aria-hidden="true">→</span>
        </p>
      ) : null}
      <div ref={box} className={["table-wrap", className].filter(Boolean).join(" ")} {...rest}>
        {children}
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
 * The values of a row's dropped columns, as short labelled lines under its first cell. Hidden while their
 * columns show (display: none: read once by a screen reader, never twice).
 */
export function Folded({ lines }: { lines: ReadonlyArray<FoldedLine | null | false | undefined> }) {
  const shown = lines.filter((line): line is FoldedLine => Boolean(line));
  if (shown.length === 0) return null;
  return (
    <dl className="table-fold">
      {shown.map((line) => (
        <div key={line.label} data-fold={line.priority}>
          <dt>{line.label}</dt> <dd>{line.value}</dd>
        </div>
      ))}
    </dl>
  );
}
