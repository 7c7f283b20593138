import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { TopNav } from "~/components/layout/top-nav";
import { RouteErrorPage } from "~/components/status-page";
import styles from "~/styles/participant.css";
import { requireLayout } from "~/glue/auth.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/** The participant screens' layout: every signed-in role may open them (docs/domain.md). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireLayout(request, "/");
  return { user: { name: user.name, role: user.role, teamName: user.teamName } };
}

/** The submission page says "Loading..." while it loads (the gate board has its own animation). */
function useOpeningChallenge(): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  return (
    navigation.state === "loading" &&
    !navigation.formMethod &&
    /^\/submition\/[^/]+$/.test(navigation.location.pathname) &&
    navigation.location.pathname !== location.pathname
  );
}

export default function AppLayout() {
  const { user } = useLoaderData<typeof loader>();
  const openingChallenge = useOpeningChallenge();
  return (
    <div className="app-shell">
      <TopNav user={user} />
      {openingChallenge ? (
        <main className="page participant-page page-loading">
          <p role="status" className="page-loading__text">
            Loading...
          </p>
        </main>
      ) : (
        <Outlet />
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPage />;
}
