import type { LoaderFunctionArgs } from "@remix-run/node";
import { requirePage } from "~/glue/auth.server";
import { csvFileName, csvStreamResponse } from "~/modules/exports/csv-format.server";
import { attemptsCsv } from "~/modules/flags/attempts.server";
import { attemptFilterOf, readAttemptListQuery } from "~/modules/flags/attempts-query";
import { getEventTimeZone } from "~/modules/settings/settings.server";

/** The flag attempts of the Attempts page's filters as CSV, every one, streamed (admins only: pageRoles). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const query = readAttemptListQuery(new URL(request.url).searchParams);
  const timeZone = await getEventTimeZone();
  return csvStreamResponse(attemptsCsv(attemptFilterOf(query), timeZone), csvFileName("flag-attempts"));
}
