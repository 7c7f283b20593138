import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, NavLink, Outlet, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useThrottledEvent } from "~/components/realtime/revalidate-on";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useT } from "~/components/i18n";
import { LanguageSwitch } from "~/components/layout/language-switch";
import { pageTitle } from "~/modules/i18n/i18n";
import { DashboardError } from "~/components/dashboard/error-boundary";
import { FIRST_LINE_HOST, FlashNotice, type FlashNoticeHandle } from "~/components/flash-notice";
import { toastsBelow } from "~/components/toaster";
import { RouteErrorPage } from "~/components/status-page";
import { requireLayout } from "~/glue/auth.server";
import { languageOf } from "~/glue/language.server";
import { canOpen, type Role } from "~/modules/auth/access";
import { judgeErrorAlert, type JudgeErrorAlert } from "~/modules/code/runs.server";
import { judgeBacklogTotal } from "~/modules/judging/queue.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "dashboard.title") }];

/** The flashed message (without JavaScript) opens the page's main area. */
export const handle: FlashNoticeHandle = { flashNotice: true };

/** The dashboard layout admits admins, judges and mentors; each page below narrows it further. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireLayout(request, "/dashboard");
  // What is left for this user to score, beside the Judging link (live: the workspace re-reads it).
  const backlog = canOpen(user.role, "/dashboard/judge") ? await judgeBacklogTotal(user.id) : 0;
  // Admins: the code runs the platform failed to judge, above every page (none read: no banner, the page still shown).
  const judgeErrors = user.role === "admin" ? await judgeErrorAlert(languageOf(request)).catch(() => null) : null;
  return { user: { name: user.name, role: user.role }, backlog, judgeErrors };
}

/** Every page of the sidebar; a user sees those the page-roles table lets their role open. */
const dashboardLinks = [
  { to: "/dashboard", label: "dashboard.nav.home", end: true },
  { to: "/dashboard/teams", label: "dashboard.nav.teams" },
  { to: "/dashboard/awards", label: "dashboard.nav.awards" },
  { to: "/dashboard/users", label: "dashboard.nav.users" },
  { to: "/dashboard/usersrank", label: "dashboard.nav.usersRank" },
  { to: "/dashboard/mentors", label: "dashboard.nav.mentors" },
  { to: "/dashboard/needs", label: "dashboard.nav.needs" },
  { to: "/dashboard/questions", label: "dashboard.nav.questions" },
  { to: "/dashboard/allchallenges", label: "dashboard.nav.allchallenges" },
  { to: "/dashboard/challenges", label: "dashboard.nav.addChallenges" },
  { to: "/dashboard/getAllChallenges", label: "dashboard.nav.getAllChallenges" },
  { to: "/dashboard/judge", label: "dashboard.nav.judge", counted: true },
  { to: "/dashboard/judges", label: "dashboard.nav.judges" },
  { to: "/dashboard/submissions", label: "dashboard.nav.submissions" },
  { to: "/dashboard/attempts", label: "dashboard.nav.attempts" },
  { to: "/dashboard/signals", label: "dashboard.nav.signals" },
  { to: "/dashboard/notifications", label: "dashboard.nav.notifications" },
  { to: "/dashboard/settings", label: "dashboard.nav.settings" },
  { to: "/dashboard/audit", label: "dashboard.nav.audit" },
  { to: "/dashboard/registrations", label: "dashboard.nav.registrations" },
  { to: "/dashboard/mailbox", label: "dashboard.nav.mailbox" },
  { to: "/dashboard/queues", label: "dashboard.nav.queues", external: true },
  { to: "/dashboard/tokens", label: "dashboard.nav.tokens" },
  { to: "/dashboard/import", label: "dashboard.nav.import" },
];

export default function DashboardLayout() {
  const { user, backlog, judgeErrors } = useLoaderData<typeof loader>();
  return (
    <DashboardShell user={user} backlog={backlog} judgeErrors={judgeErrors}>
      <Outlet />
    </DashboardShell>
  );
}

function DashboardShell({
  user,
  backlog: loaded,
  judgeErrors,
  children,
}: {
  user: { name: string; role: Role };
  backlog: number;
  judgeErrors: JudgeErrorAlert | null;
  children: ReactNode;
}) {
  const { t } = useT();
  const links = dashboardLinks.filter((link) => canOpen(user.role, link.to));
  // The count follows submissions and other judges' scores on every dashboard page: re-read on each judging
  // event (at most every 2 s), the newest figure shown. A failed read keeps the last one.
  const [fresh, setFresh] = useState<{ backlog: number; for: number } | null>(null);
  useThrottledEvent("judging:changed", () => {
    void fetch("/dashboard/backlog", { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<{ backlog: number }>) : null))
      .then((body) => {
        if (body && Number.isInteger(body.backlog)) setFresh({ backlog: body.backlog, for: loaded });
      })
      .catch(() => undefined);
  });
  // A newer page load (another page, a re-read) brings its own count: a live figure fetched before it is dropped.
  const backlog = fresh && fresh.for === loaded ? fresh.backlog : loaded;
  // On a phone the links are one row that scrolls sideways: the current page's link is brought into it.
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    const row = nav.current;
    const current = row?.querySelector<HTMLElement>('a[aria-current="page"]');
    if (!row || !current || row.scrollWidth <= row.clientWidth + 1) return;
    const rowBox = row.getBoundingClientRect();
    const linkBox = current.getBoundingClientRect();
    // Centred in the row, without moving the page itself.
    row.scrollLeft += linkBox.left + linkBox.width / 2 - (rowBox.left + rowBox.width / 2);
  }, [pathname]);
  return (
    <div className="dashboard">
      {/* Above the page on a phone: toasts stay below it there (beside it on a wide screen). */}
      <aside className="dashboard__sidebar" {...toastsBelow}>
        {/* The screen-high column that stays in view on a long page: the links scroll inside it, never under its foot. */}
        <div className="dashboard__rail">
          <p className="dashboard__brand">{t("dashboard.title")}</p>
          <nav ref={nav} aria-label={t("dashboard.navLabel")}>
            <ul>
              {links.map((link) => (
                <li key={link.to}>
                  {"external" in link ? (
                    // Served by Express (bull-board), not by Remix: a full page load.
                    <a href={link.to}>{t(link.label)}</a>
                  ) : (
                    <NavLink to={link.to} end={"end" in link}>
                      {t(link.label)}
                      {"counted" in link ? (
                        <span className="dashboard__count">
                          <span aria-hidden="true">{backlog}</span>
                          <span className="visually-hidden">{t("dashboard.leftToScore", { count: backlog })}</span>
                        </span>
                      ) : null}
                    </NavLink>
                  )}
                </li>
              ))}
            </ul>
          </nav>
          <div className="dashboard__foot">
            {/* One row: the foot keeps its height, and every link of the sidebar stays in view on a laptop. */}
            <div className="dashboard__foot-row">
              <LanguageSwitch className="dashboard__language" />
              <Link to="/account/password" className="icon-button dashboard__account" aria-label={t("dashboard.changePassword")} title={t("dashboard.changePassword")}>
                <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                  <circle cx="8" cy="15" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
                  <path d="M11 12l9-9M17 6l3 3M15 8l2 2" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                </svg>
              </Link>
            </div>
            <Form method="post" action="/logout">
              <button type="submit" className="link-button">
                {t("dashboard.logout")} (<bdi>{user.name}</bdi>)
              </button>
            </Form>
          </div>
        </div>
      </aside>
      <main className="dashboard__main" {...FIRST_LINE_HOST}>
        <FlashNotice firstLineOnPhone />
        {user.role === "admin" ? <JudgeErrorBanner loaded={judgeErrors} /> : null}
        {children}
      </main>
    </div>
  );
}

/**
 * The admins' alert: code runs the platform failed to judge (docs/domain.md "Code challenges"), each challenge linked to
 * its runs that fail. Live: re-read when a runner reports a judge error and, while shown, as runs move (at most every
 * 5 s), so it goes once they are judged; without JavaScript, on the next page load.
 */
function JudgeErrorBanner({ loaded }: { loaded: JudgeErrorAlert | null }) {
  const { t } = useT();
  const [fresh, setFresh] = useState<{ alert: JudgeErrorAlert; for: JudgeErrorAlert | null } | null>(null);
  // A newer page load brings its own alert: one fetched before it is dropped (as the Judging count is).
  const alert = fresh && fresh.for === loaded ? fresh.alert : loaded;
  const reread = () => {
    void fetch("/dashboard/judge-errors", { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<JudgeErrorAlert>) : null))
      .then((body) => {
        if (body && Array.isArray(body.challenges)) setFresh({ alert: body, for: loaded });
      })
      .catch(() => undefined);
  };
  useThrottledEvent("runs:judge-error", reread);
  useThrottledEvent("runs:changed", reread, 5000, (alert?.challenges.length ?? 0) > 0);
  if (!alert || alert.challenges.length === 0) return null;
  return (
    <section className="dashboard__alert stack" role="alert" aria-labelledby="judge-errors-title">
      <h2 id="judge-errors-title">{t("dashboard.judgeErrors")}</h2>
      <ul>
        {alert.challenges.map((challenge) => (
          <li key={challenge.id}>
            <Link to={`/dashboard/code/${challenge.id}?failing=1`}>
              <bdi>{challenge.title}</bdi>
            </Link>
            {": "}
            {t("dashboard.judgeErrorsRuns", { count: challenge.runs })}
          </li>
        ))}
        {alert.more ? <li>{t("dashboard.judgeErrorsMore")}</li> : null}
      </ul>
      <p>{t("dashboard.judgeErrorsHelp")}</p>
    </section>
  );
}

/**
 * The dashboard's one error boundary. A page below that fails keeps the dashboard around it (the layout's
 * data loaded); when the layout itself is refused (a participant, 403), the full status page.
 */
export function ErrorBoundary() {
  const layout = useRouteLoaderData<typeof loader>("routes/dashboard");
  if (!layout) return <RouteErrorPage />;
  return (
    <DashboardShell user={layout.user} backlog={layout.backlog} judgeErrors={layout.judgeErrors}>
      <DashboardError />
    </DashboardShell>
  );
}
