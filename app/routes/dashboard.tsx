import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useThrottledEvent } from "~/components/realtime/revalidate-on";
import { useState, type ReactNode } from "react";
import { DashboardError } from "~/components/dashboard/error-boundary";
import { FlashNotice, type FlashNoticeHandle } from "~/components/flash-notice";
import { toastsBelow } from "~/components/toaster";
import { RouteErrorPage } from "~/components/status-page";
import { requireLayout } from "~/glue/auth.server";
import { canOpen, type Role } from "~/modules/auth/access";
import { judgeBacklogTotal } from "~/modules/judging/queue.server";

export const meta: MetaFunction = () => [{ title: "Gatekeeper Dashboard" }];

/** The flashed message (without JavaScript) opens the page's main area. */
export const handle: FlashNoticeHandle = { flashNotice: true };

/** The dashboard layout admits admins, judges and mentors; each page below narrows it further. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireLayout(request, "/dashboard");
  // What is left for this user to score, beside the Judging link (live: the workspace re-reads it).
  const backlog = canOpen(user.role, "/dashboard/judge") ? await judgeBacklogTotal(user.id) : 0;
  return { user: { name: user.name, role: user.role }, backlog };
}

/** Every page of the sidebar; a user sees those the page-roles table lets their role open. */
const dashboardLinks = [
  { to: "/dashboard", label: "home", end: true },
  { to: "/dashboard/teams", label: "Teams" },
  { to: "/dashboard/awards", label: "Awards" },
  { to: "/dashboard/users", label: "Users" },
  { to: "/dashboard/usersrank", label: "Users Rank" },
  { to: "/dashboard/mentors", label: "Mentors Calls" },
  { to: "/dashboard/needs", label: "Users Needs" },
  { to: "/dashboard/questions", label: "Questions" },
  { to: "/dashboard/allchallenges", label: "All challanges" },
  { to: "/dashboard/challenges", label: "Add Challenges" },
  { to: "/dashboard/getAllChallenges", label: "All Challenges" },
  { to: "/dashboard/judge", label: "Judging", counted: true },
  { to: "/dashboard/judges", label: "Judges" },
  { to: "/dashboard/submissions", label: "Submissions" },
  { to: "/dashboard/notifications", label: "Notifications" },
  { to: "/dashboard/settings", label: "Settings" },
  { to: "/dashboard/audit", label: "Audit trail" },
  { to: "/dashboard/registrations", label: "Registrations" },
  { to: "/dashboard/queues", label: "Queues", external: true },
  { to: "/dashboard/tokens", label: "API tokens" },
  { to: "/dashboard/import", label: "Import" },
];

export default function DashboardLayout() {
  const { user, backlog } = useLoaderData<typeof loader>();
  return (
    <DashboardShell user={user} backlog={backlog}>
      <Outlet />
    </DashboardShell>
  );
}

function DashboardShell({ user, backlog: loaded, children }: { user: { name: string; role: Role }; backlog: number; children: ReactNode }) {
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
  return (
    <div className="dashboard">
      {/* Above the page on a phone: toasts stay below it there (beside it on a wide screen). */}
      <aside className="dashboard__sidebar" {...toastsBelow}>
        <p className="dashboard__brand">Gatekeeper Dashboard</p>
        <nav aria-label="Dashboard">
          <ul>
            {links.map((link) => (
              <li key={link.to}>
                {"external" in link ? (
                  // Served by Express (bull-board), not by Remix: a full page load.
                  <a href={link.to}>{link.label}</a>
                ) : (
                  <NavLink to={link.to} end={"end" in link}>
                    {link.label}
                    {"counted" in link ? (
                      <span className="dashboard__count">
                        <span aria-hidden="true">{backlog}</span>
                        <span className="visually-hidden">, {backlog} left to score</span>
                      </span>
                    ) : null}
                  </NavLink>
                )}
              </li>
            ))}
          </ul>
        </nav>
        <Form method="post" action="/logout">
          <button type="submit" className="link-button">
            Logout ({user.name})
          </button>
        </Form>
      </aside>
      <main className="dashboard__main">
        <FlashNotice />
        {children}
      </main>
    </div>
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
    <DashboardShell user={layout.user} backlog={layout.backlog}>
      <DashboardError />
    </DashboardShell>
  );
}
