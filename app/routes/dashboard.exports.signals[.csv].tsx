import type { LoaderFunctionArgs } from "@remix-run/node";
import { csvResponse } from "~/modules/exports/csv-format.server";
import { signalsCsv } from "~/modules/integrity/signals.server";
import { requirePage } from "~/glue/auth.server";

/** Every integrity signal, decided or not, as CSV for the organisers' records (admins only). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  return csvResponse(await signalsCsv(), `integrity-signals-${new Date().toISOString().slice(0, 10)}.csv`);
}
