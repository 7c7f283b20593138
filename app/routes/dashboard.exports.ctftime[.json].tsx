import type { LoaderFunctionArgs } from "@remix-run/node";
import { requirePage } from "~/glue/auth.server";
import { ctftimeScoreboard } from "~/modules/exports/ctftime.server";

/** Live standings in CTFtime's scoreboard feed format, as a download (admins only: pageRoles). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return new Response(JSON.stringify(await ctftimeScoreboard()), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="ctftime-${new Date().toISOString().slice(0, 10)}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
