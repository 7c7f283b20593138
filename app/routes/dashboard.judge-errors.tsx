import type { LoaderFunctionArgs } from "@remix-run/node";
import { requirePage } from "~/glue/auth.server";
import { languageOf } from "~/glue/language.server";
import { judgeErrorAlert } from "~/modules/code/runs.server";

/**
 * The admins' judge-error alert as JSON (admins only, pageRoles' "/dashboard"): the dashboard's banner re-reads it with a
 * plain fetch when a runner reports a judge error, and while it shows, as runs move (not a Remix fetcher: its error
 * would take the whole dashboard to its error page).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return Response.json(await judgeErrorAlert(languageOf(request)), { headers: { "Cache-Control": "private, no-store" } });
}
