import { Link } from "@remix-run/react";
import { useT } from "~/components/i18n";
import { judgeShortcuts } from "~/hooks/use-judge-shortcuts";
import { filtersOf, isFiltered, workspaceHref } from "~/modules/judging/schema";
import type { WorkspacePage } from "./format";

/** What each shortcut does (the keys themselves are physical: app/hooks/use-judge-shortcuts.ts). */
const shortcutKeys: Record<(typeof judgeShortcuts)[number]["code"], string> = {
  Enter: "judgeWorkspace.shortcut.enter",
  KeyS: "judgeWorkspace.shortcut.skip",
  KeyB: "judgeWorkspace.shortcut.back",
  KeyF: "judgeWorkspace.shortcut.file",
  KeyE: "judgeWorkspace.shortcut.score",
  Escape: "judgeWorkspace.shortcut.escape",
};

export function Shortcuts() {
  const { t } = useT();
  return (
    <details className="judge__shortcuts" open>
      <summary>{t("judgeWorkspace.shortcuts")}</summary>
      <dl>
        {judgeShortcuts.map((shortcut) => (
          <div key={shortcut.code}>
            <dt>
              <kbd>{shortcut.key}</kbd>
            </dt>
            <dd>{t(shortcutKeys[shortcut.code])}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">{t("judgeWorkspace.lettersNote")}</p>
    </details>
  );
}

export function QueueList({ data: { queue, current, query, backlog } }: { data: WorkspacePage }) {
  const { t } = useT();
  const shown = queue.length;
  return (
    <section aria-labelledby="queue-title" className="judge__queue">
      <h2 id="queue-title">
        {t("judgeWorkspace.queue")}{" "}
        <span className="muted">({shown < backlog.total && !isFiltered(query) ? t("judgeWorkspace.queueOf", { shown, total: backlog.total }) : shown})</span>
      </h2>
      {queue.length === 0 ? (
        <p className="muted">{t("judgeWorkspace.queueEmpty")}</p>
      ) : (
        <ol className="judge__queue-list">
          {queue.map((item) => (
            <li key={item.id} className={item.id === current?.id ? "judge__queue-item judge__queue-item--current" : "judge__queue-item"}>
              <Link to={workspaceHref({ ...filtersOf(query), s: item.id })} aria-current={item.id === current?.id ? "page" : undefined}>
                <bdi>{item.team}</bdi> — <bdi>{item.challenge}</bdi>
              </Link>
              <span className="muted">
                {" "}
                {t("judgeWorkspace.gateShort", { gate: item.wave ?? "—" })} · {item.category}
              </span>
              {item.changedSinceScore ? <span className="judge__badge">{t("judgeWorkspace.changedBadge")}</span> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
