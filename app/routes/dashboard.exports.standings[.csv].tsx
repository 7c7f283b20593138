import type { LoaderFunctionArgs } from "@remix-run/node";
import { standingsCsv } from "~/modules/exports/csv.server";
import { csvResponse } from "~/modules/exports/csv-format.server";
import { requirePage } from "~/glue/auth.server";

/** Live standings as CSV (admins always see live standings, even while the board is frozen). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return csvResponse(await standingsCsv(), `standings-${new Date().toISOString().slice(0, 10)}.csv`);
}
