import type { MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { TopNav } from "~/components/layout/top-nav";
import { StatusPage } from "~/components/status-page";
import { roleHome } from "~/modules/auth/access";
import { pageTitle } from "~/modules/i18n/i18n";
import { useT } from "~/components/i18n";
import { useOptionalUser } from "~/root";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "meta.notFound") }];

// Public route: the not-found page answers with a real 404 status.
export async function loader() {
  return data(null, { status: 404 });
}

/** A public page: it carries the public layout's bar, for visitors and signed-in users alike. */
export default function NotFound() {
  const user = useOptionalUser();
  const { t } = useT();
  return (
    <div className="app-shell">
      <TopNav user={user} />
      <StatusPage
        status={404}
        title={t("errors.notFoundTitle")}
        message={t("errors.notFound")}
        home={user ? roleHome(user.role) : "/"}
      />
    </div>
  );
}
