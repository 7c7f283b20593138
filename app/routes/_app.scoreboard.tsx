import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { SocialLinks } from "~/components/participant/social-links";
import { CategoryLeadersPanel } from "~/components/realtime/category-leaders";
import { useFormats } from "~/components/realtime/format";
import { Trans } from "react-i18next";
import { useT } from "~/components/i18n";
import { pageTitle } from "~/modules/i18n/i18n";
import { BoardRow, boardCategories as categories, marksByTeam } from "~/components/realtime/board-row";
import { BoardPages, DivisionFilter } from "~/components/realtime/board-nav";
import { useSocketEvent } from "~/components/realtime/socket-provider";
import { LiveIndicator } from "~/components/realtime/live-indicator";
import { useLiveStandings } from "~/components/realtime/live-standings";
import { ScoreChart } from "~/components/realtime/score-chart";
import { LoadErrorPage } from "~/components/status-page";
import { TitleBar } from "~/components/ui/title-bar";
import type { TeamStanding } from "~/modules/realtime/events";
import { socialLinks } from "~/modules/settings/social-links";
import { leadersOfBoard } from "~/modules/standings/category-leaders";
import { CHART_TEAMS, chartTeamIds, extendChart, followsTeams } from "~/modules/standings/chart";
import { chartCutFor } from "~/modules/standings/frozen-view";
import { getScoreChart } from "~/modules/standings/history.server";
import { boardPageOf } from "~/modules/standings/feed-query";
import { getBoardMarks, getCategoryLeaders, getScoreboardJson } from "~/modules/standings/scoreboard.server";
import { requirePage } from "~/glue/auth.server";
import { eventVersionsFor } from "~/glue/viewer-badges.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.scoreboard") }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requirePage(request);
  // The teams come as one JSON string shared by every viewer of the same page of the live board (decoded below).
  const viewer = { id: user.id, role: user.role, teamId: user.teamId };
  const query = new URL(request.url).searchParams;
  // Live or frozen for this viewer: the frozen-board rule (app/modules/standings/frozen-view.ts); of every
  // team, or of the division `?division=` names (app/modules/standings/divisions.ts); a big board a page
  // (`?page=`) at a time, the viewer's own team always shown (app/modules/standings/board-window.ts).
  const { leaders, live, boardLeaders, ...board } = await getScoreboardJson(viewer, CHART_TEAMS, query.get("division"), boardPageOf(query.get("page")));
  const [{ chart, timeZone }, categoryLeaders, marks] = await Promise.all([
    // Read once per board and per version of the settings and gates, not per request (history.server.ts).
    eventVersionsFor(context, user, request).then((versions) => getScoreChart({ teams: leaders, frozenFor: chartCutFor(viewer, board.frozen), versions })),
    // The category top 3 of this board: ranked once per version by the server for a page of a big board; a
    // frozen participant's places at the freeze; null for a whole live board (ranked on the page).
    boardLeaders ?? (live ? null : getCategoryLeaders(viewer, board.division)),
    // The first three solves of each flag challenge, for the rows' details: once per board (as of the freeze for a frozen participant).
    getBoardMarks(viewer),
  ]);
  return { ...board, liveForViewer: live, chart, timeZone, categoryLeaders, marks };
}

const FLASH_MS = 1600;

export default function Scoreboard() {
  const data = useLoaderData<typeof loader>();
  const { revalidate } = useRevalidator();
  const { t } = useT();
  const format = useFormats();

  // The chart starts from the loader and re-syncs whenever the loader runs again, as the board does
  // (useLiveStandings): events are hints, the loader is the truth.
  const [chart, setChart] = useState(data.chart);
  const [source, setSource] = useState(data);
  if (source !== data) {
    setSource(data);
    setChart(data.chart);
  }

  const [flashing, setFlashing] = useState<ReadonlySet<number>>(() => new Set());
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);
  const flash = (teamId: number) => {
    setFlashing((current) => new Set(current).add(teamId));
    clearTimeout(timers.current.get(teamId));
    timers.current.set(
      teamId,
      setTimeout(() => {
        timers.current.delete(teamId);
        setFlashing((current) => {
          const next = new Set(current);
          next.delete(teamId);
          return next;
        });
      }, FLASH_MS),
    );
  };

  const [ownNews, setOwnNews] = useState("");

  // The board, live as the freeze allows this viewer (one rule for every page that holds it).
  const teams = useLiveStandings(data, (update: TeamStanding) => {
    setChart((current) => extendChart(current, update, Date.now()));
    flash(update.id);
    if (update.id === data.ownTeamId) {
      // The update's rank is the overall one: a division's board says its points only.
      const points = format.points(update.totalScore);
      setOwnNews(
        data.liveForViewer && data.division === null
          ? t("scoreboard.ownNewsRank", { points, rank: update.rank })
          : t("scoreboard.ownNews", { points }),
      );
    }
  });
  const categoryLeaders = leadersOfBoard(teams, data.categoryLeaders, data.ownTeamId);

  // A team entering or leaving the top 10 needs its history: the loader reads the chart again. (A page of a
  // big board is read again whenever an update may move it: useLiveStandings.)
  const windowed = data.window !== null;
  useEffect(() => {
    if (data.liveForViewer && !windowed && !followsTeams(chart, chartTeamIds(teams))) revalidate();
  }, [data.liveForViewer, windowed, chart, teams, revalidate]);

  // A page of a big board: its rows, then the own team's neighbourhood when the team is on another page.
  const aroundCount = data.window ? data.around.length : 0;
  const pageRows = aroundCount ? teams.slice(0, teams.length - aroundCount) : teams;
  const aroundRows = aroundCount ? teams.slice(teams.length - aroundCount) : [];
  const ownAbove = data.window !== null && data.window.ownPage !== null && data.window.ownPage < data.window.page;
  // A first blood re-reads the page: the rows' marks come with its data.
  useSocketEvent("first_blood", () => revalidate());
  const marks = marksByTeam(data.marks);
  const row = (team: TeamStanding) => (
    <BoardRow key={team.id} team={team} own={team.id === data.ownTeamId} flashing={flashing.has(team.id)} marks={marks.get(team.id)} />
  );
  const gap = (where: string) => (
    <tr className="scoreboard__gap" key={`gap-${where}`}>
      <td colSpan={4 + categories.length}>
        <span aria-hidden="true">⋯</span> <span className="visually-hidden">{t("scoreboard.ownElsewhere")}</span>
      </td>
    </tr>
  );

  return (
    <main className="page scoreboard" aria-labelledby="scoreboard-title">
      <TitleBar title={t("scoreboard.title")} id="scoreboard-title" />
      <div className="scoreboard__thanks">
        <p>{t("scoreboard.thanks")}</p>
        <SocialLinks links={socialLinks} />
      </div>

      {data.frozen ? (
        <p className="scoreboard__frozen" role="note">
          <strong>{t("scoreboard.frozen")}</strong>{" "}
          {data.liveForViewer ? t("scoreboard.frozenStaff") : t("scoreboard.frozenTeam")}
        </p>
      ) : null}

      <div className="scoreboard__bar">
        <LiveIndicator />
      </div>

      <DivisionFilter divisions={data.divisions} division={data.division} unknown={data.unknown} />

      <div className="scoreboard__boards">
      <div className="scoreboard__main">
      <div className="table-wrap scoreboard__wrap">
        <table className="table scoreboard__table">
          <caption>
            {data.division === null ? (
              t("scoreboard.caption")
            ) : (
              <Trans i18nKey="scoreboard.captionDivision" values={{ division: data.division }} components={{ name: <bdi /> }} />
            )}
            {data.frozen && !data.liveForViewer ? t("scoreboard.frozenSuffix") : ""}
          </caption>
          <thead>
            <tr>
              <th scope="col" className="scoreboard__rank-col">
                {t("scoreboard.rank")}
              </th>
              <th scope="col">{t("scoreboard.team")}</th>
              {categories.map((category) => (
                <th key={category.key} scope="col" className="num scoreboard__cat">
                  {category.title ? <abbr title={t(category.title)}>{category.key}</abbr> : category.key}
                </th>
              ))}
              <th scope="col" className="num">
                {t("scoreboard.solved")}
              </th>
              <th scope="col" className="num">
                {t("scoreboard.total")}
              </th>
            </tr>
          </thead>
          <tbody>
            {teams.length === 0 ? (
              <tr>
                <td colSpan={4 + categories.length} className="scoreboard__empty">
                  {data.division === null ? (
                    t("scoreboard.empty")
                  ) : (
                    <Trans i18nKey="scoreboard.emptyDivision" values={{ division: data.division }} components={{ name: <bdi /> }} />
                  )}
                </td>
              </tr>
            ) : (
              <>
                {ownAbove ? [...aroundRows.map(row), gap("above")] : null}
                {pageRows.map(row)}
                {!ownAbove && aroundRows.length ? [gap("below"), ...aroundRows.map(row)] : null}
              </>
            )}
          </tbody>
        </table>
      </div>
      {data.window ? <BoardPages window={data.window} division={data.division} /> : null}
      </div>

      <CategoryLeadersPanel leaders={categoryLeaders} ownTeamId={data.ownTeamId} frozen={data.frozen && !data.liveForViewer} />
      </div>

      <ScoreChart
        chart={chart}
        timeZone={data.timeZone}
        ownTeamId={data.ownTeamId}
        frozenNote={data.liveForViewer ? undefined : t("scoreboard.chartFrozen")}
      />

      <div className="visually-hidden" aria-live="polite" aria-atomic="true">
        {ownNews}
      </div>
    </main>
  );
}

/** "Error loading teams" when the board cannot be read; role errors keep their own page. */
export function ErrorBoundary() {
  const { t } = useT();
  return <LoadErrorPage title={t("scoreboard.title")} className="scoreboard" text={() => t("scoreboard.loadFailed")} />;
}
