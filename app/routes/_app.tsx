import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { TopNav } from "~/components/layout/top-nav";
import { RouteErrorPage } from "~/components/status-page";
import styles from "~/styles/participant.css";
import { requireUser } from "~/utils/auth.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/** The participant screens' layout: every signed-in role may open them (DOMAIN.md). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { user: { name: user.name, role: user.role, teamName: user.teamName } };
}

export default function AppLayout() {
  const { user } = useLoaderData<typeof loader>();
  return (
    <div className="app-shell">
      <TopNav user={user} />
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
