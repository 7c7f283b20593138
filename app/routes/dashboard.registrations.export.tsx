import type { LoaderFunctionArgs } from "@remix-run/node";
import { csvFileName, csvResponse } from "~/modules/exports/csv-format.server";
import { registrationsCsv } from "~/modules/registrations/csv.server";
import { listRegistrations } from "~/modules/registrations/registrations.server";
import { requirePage } from "~/glue/auth.server";

/** Resource route: the registrations (optionally the current search) as a CSV download. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const q = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200);
  return csvResponse(registrationsCsv(await listRegistrations(q)), csvFileName("registrations"));
}
