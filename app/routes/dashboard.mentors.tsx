import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { formatDayTime } from "~/components/realtime/format";
import { useSocketEvent } from "~/components/realtime/socket-provider";
import type { RequestEvent } from "~/modules/realtime/events";
import { listRequests } from "~/modules/requests/requests.server";
import { getEventTimeZone } from "~/modules/settings/settings.server";
import styles from "~/styles/dashboard.css";
import { requireRole } from "~/utils/auth.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const [rows, timeZone] = await Promise.all([listRequests("mentor"), getEventTimeZone()]);
  return { rows, timeZone };
}

/** Spec 2.16: Team, User, Message, Date (12-hour), newest first; new ones arrive live (request:new). */
export default function MentorsCalls() {
  const { rows, timeZone } = useLoaderData<typeof loader>();
  const [live, setLive] = useState<RequestEvent[]>([]);
  // A re-read (navigation, revalidation) already holds what arrived live.
  useEffect(() => setLive([]), [rows]);
  useSocketEvent("request:new", (event) => {
    if (event.kind !== "mentor") return;
    setLive((current) => (current.some((row) => row.id === event.id) ? current : [event, ...current]));
  });
  const known = new Set(rows.map((row) => row.id));
  const all = [...live.filter((row) => !known.has(row.id)), ...rows];
  return (
    <section aria-labelledby="mentors-title" className="stack dash-page">
      <h1 id="mentors-title">Mentors Calls</h1>
      {all.length === 0 ? (
        <p>No mentor calls yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Team</th>
                <th scope="col">User</th>
                <th scope="col">Message</th>
                <th scope="col">Date</th>
              </tr>
            </thead>
            <tbody aria-live="polite">
              {all.map((row) => (
                <tr key={row.id} data-request-id={row.id}>
                  <td dir="auto">{row.team ?? "—"}</td>
                  <td dir="auto">{row.user ?? "deleted user"}</td>
                  <td dir="auto" className="submission-text">
                    {row.message}
                  </td>
                  <td className="nowrap">
                    <time dateTime={row.createdAt}>{formatDayTime(row.createdAt, timeZone)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <p role="alert" className="message message--error">Failed to load mentors</p>;
}
