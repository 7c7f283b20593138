import type { MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { TopNav } from "~/components/layout/top-nav";
import { StatusPage } from "~/components/status-page";
import { roleHome } from "~/modules/auth/access";
import { messages } from "~/modules/messages";
import { useOptionalUser } from "~/root";

export const meta: MetaFunction = () => [{ title: "Not found · Gatekeeper" }];

// Public route: the not-found page answers with a real 404 status.
export async function loader() {
  return data(null, { status: 404 });
}

/** A public page: it carries the public layout's bar, for visitors and signed-in users alike. */
export default function NotFound() {
  const user = useOptionalUser();
  return (
    <div className="app-shell">
      <TopNav user={user} />
      <StatusPage
        status={404}
        title={messages.errors.notFoundTitle}
        message={messages.errors.notFound}
        home={user ? roleHome(user.role) : "/"}
      />
    </div>
  );
}
