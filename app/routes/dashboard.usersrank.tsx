import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatPoints } from "~/components/realtime/format";
import { listUsersRank } from "~/modules/users/rank.server";
import styles from "~/styles/dashboard.css";
import { requirePage } from "~/glue/auth.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return { users: await listUsersRank() };
}

const columns = [
  { key: "ai", label: "AI", category: "AI" },
  { key: "gd", label: "GD", category: "GD" },
  { key: "cs", label: "CS", category: "CS" },
  { key: "ps", label: "PS", category: "PS" },
] as const;

export default function UsersRank() {
  const { users } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="users-rank-title" className="stack dash-page">
      <h1 id="users-rank-title">Users Rank</h1>
      <p className="cluster">
        <a href="/dashboard/exports/users-rank.csv" download>
          Download Users Rank (CSV)
        </a>
        <a href="/dashboard/exports/standings.csv" download>
          Download team standings (CSV)
        </a>
      </p>
      {users.length === 0 ? (
        <p>No participants yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Participants by total score; the number in brackets is the challenges solved</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Team</th>
                <th scope="col">User</th>
                {columns.map((column) => (
                  <th key={column.key} scope="col" className="num">
                    {column.label}
                  </th>
                ))}
                <th scope="col" className="num">
                  Total score
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((user, index) => (
                <tr key={user.id} data-user-id={user.id}>
                  <td className="num">{index + 1}</td>
                  <td dir="auto">{user.team ?? "—"}</td>
                  <td dir="auto">{user.name}</td>
                  {columns.map((column) => (
                    <td key={column.key} className="num">
                      {formatPoints(user[column.key])}
                      <span className="solved-count" title={`${user.solved[column.category]} solved`}>
                        ({user.solved[column.category]}
                        <span className="visually-hidden"> solved</span>)
                      </span>
                    </td>
                  ))}
                  <td className="num">
                    <strong>{formatPoints(user.total)}</strong>
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
