import { Link } from "@remix-run/react";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { filtersOf, workspaceHref } from "~/modules/judging/schema";
import { useAt, type WorkspacePage } from "./format";
import { Folded, SideScroll } from "~/components/ui/side-scroll";

export function History({ data: { history, timeZone, query } }: { data: WorkspacePage }) {
  const { t } = useT();
  const format = useFormats();
  const at = useAt();
  return (
    <section aria-labelledby="history-title" className="judge__history card">
      <h2 id="history-title">{t("judgeWorkspace.history")}</h2>
      {history.length === 0 ? (
        <p className="muted">{t("judgeWorkspace.historyEmpty")}</p>
      ) : (
        <SideScroll>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("judgeWorkspace.column.when")}</th>
                <th scope="col" data-priority="2">{t("judgeWorkspace.column.team")}</th>
                <th scope="col">{t("judgeWorkspace.column.challenge")}</th>
                <th scope="col">{t("judgeWorkspace.column.score")}</th>
                <th scope="col" data-priority="3">{t("judgeWorkspace.column.comment")}</th>
              </tr>
            </thead>
            <tbody>
              {history.map((entry) => (
                <tr key={entry.submissionId}>
                  <td className="nowrap">
                    <time dateTime={entry.scoredAt.toISOString()}>{at(entry.scoredAt, timeZone)}</time>
                    <Folded
                      lines={[
                        { label: t("judgeWorkspace.column.team"), value: <bdi>{entry.team}</bdi>, priority: 2 },
                        { label: t("judgeWorkspace.column.comment"), value: entry.comment ? <bdi>{entry.comment}</bdi> : "—", priority: 3 },
                      ]}
                    />
                  </td>
                  <td dir="auto" data-priority="2">
                    {entry.team}
                  </td>
                  <td dir="auto">
                    <Link to={workspaceHref({ ...filtersOf(query), s: entry.submissionId })}>{entry.challenge}</Link>
                  </td>
                  <td className="num" dir="ltr">
                    {format.points(entry.scoreCenti / 100)} / {entry.points}
                  </td>
                  <td className="judge__prose" dir="auto" data-priority="3">
                    {entry.comment ?? ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </SideScroll>
      )}
    </section>
  );
}
