import type { LoaderFunctionArgs } from "@remix-run/node";
import { usersRankCsv } from "~/modules/exports/csv.server";
import { csvResponse } from "~/modules/exports/csv-format.server";
import { requirePage } from "~/glue/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return csvResponse(await usersRankCsv(), `users-rank-${new Date().toISOString().slice(0, 10)}.csv`);
}
