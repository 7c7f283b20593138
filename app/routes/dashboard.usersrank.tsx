import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useT } from "~/components/i18n";
import { useFormats } from "~/components/realtime/format";
import { listUsersRank } from "~/modules/users/rank.server";
import styles from "~/styles/dashboard.css";
import { requirePage } from "~/glue/auth.server";
import { SideScroll } from "~/components/ui/side-scroll";

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
  const { t } = useT();
  const formats = useFormats();
  return (
    <section aria-labelledby="users-rank-title" className="stack dash-page">
      <h1 id="users-rank-title">{t("usersRankPage.title")}</h1>
      <p className="cluster">
        <a href="/dashboard/exports/users-rank.csv" download>
          {t("usersRankPage.downloadUsers")}
        </a>
        <a href="/dashboard/exports/standings.csv" download>
          {t("usersRankPage.downloadStandings")}
        </a>
        <a href="/dashboard/exports/ctftime.json" download>
          {t("usersRankPage.downloadCtftime")}
        </a>
      </p>
      {/* The table's frame is focusable: nothing in the table is, and on a phone it scrolls. */}
      {users.length === 0 ? (
        <p>{t("usersRankPage.empty")}</p>
      ) : (
        <SideScroll role="region" aria-labelledby="users-rank-caption" tabIndex={0}>
          <table className="table">
            <caption id="users-rank-caption" className="visually-hidden">
              {t("usersRankPage.caption")}
            </caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">{t("usersRankPage.team")}</th>
                <th scope="col">{t("usersRankPage.user")}</th>
                {columns.map((column) => (
                  <th key={column.key} scope="col" className="num">
                    {column.label}
                  </th>
                ))}
                <th scope="col" className="num">
                  {t("usersRankPage.total")}
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((user, index) => (
                <tr key={user.id} data-user-id={user.id}>
                  <td className="num">{formats.number(index + 1)}</td>
                  <td>{user.team ? <bdi>{user.team}</bdi> : "—"}</td>
                  <td>
                    <bdi>{user.name}</bdi>
                  </td>
                  {columns.map((column) => (
                    <td key={column.key} className="num">
                      {formats.points(user[column.key])}
                      <span className="solved-count" title={t("usersRankPage.solved", { number: user.solved[column.category] })}>
                        ({user.solved[column.category]}
                        <span className="visually-hidden"> {t("usersRankPage.solvedHidden")}</span>)
                      </span>
                    </td>
                  ))}
                  <td className="num">
                    <strong>{formats.points(user.total)}</strong>
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
