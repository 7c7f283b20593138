import { useEffect, useState } from "react";
import { useFormats } from "~/components/realtime/format";
import { useT } from "~/components/i18n";
import { useSocketEvent } from "~/components/realtime/socket-provider";
import type { RequestEvent } from "~/modules/realtime/events";
import { SideScroll } from "~/components/ui/side-scroll";

/**
 * Mentors Calls and Users Needs: Team, User, Message, Date (12-hour), newest first; new rows
 * arrive live (`request:new`, admins only).
 */
export function RequestsPage({
  kind,
  title,
  empty,
  rows,
  timeZone,
}: {
  kind: RequestEvent["kind"];
  title: string;
  empty: string;
  rows: RequestEvent[];
  timeZone: string;
}) {
  const { t } = useT();
  const format = useFormats();
  const [live, setLive] = useState<RequestEvent[]>([]);
  // A re-read (navigation, revalidation) already holds what arrived live.
  useEffect(() => setLive([]), [rows]);
  useSocketEvent("request:new", (event) => {
    if (event.kind !== kind) return;
    setLive((current) => (current.some((row) => row.id === event.id) ? current : [event, ...current]));
  });
  const known = new Set(rows.map((row) => row.id));
  const all = [...live.filter((row) => !known.has(row.id)), ...rows];
  const headingId = `${kind}-title`;
  return (
    <section aria-labelledby={headingId} className="stack dash-page">
      <h1 id={headingId}>{title}</h1>
      {all.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <SideScroll>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t("dashboardMisc.column.team")}</th>
                <th scope="col">{t("dashboardMisc.column.user")}</th>
                <th scope="col">{t("dashboardMisc.column.message")}</th>
                <th scope="col">{t("dashboardMisc.column.date")}</th>
              </tr>
            </thead>
            <tbody aria-live="polite">
              {all.map((row) => (
                <tr key={row.id} data-request-id={row.id}>
                  <td>{row.team ? <bdi>{row.team}</bdi> : "—"}</td>
                  <td>{row.user ? <bdi>{row.user}</bdi> : t("dashboardMisc.deletedUser")}</td>
                  <td dir="auto" className="submission-text">
                    {row.message}
                  </td>
                  <td className="nowrap">
                    <time dateTime={row.createdAt}>{format.dayTime(row.createdAt, timeZone)}</time>
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
