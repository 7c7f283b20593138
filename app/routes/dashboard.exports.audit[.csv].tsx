import { parseWithZod } from "@conform-to/zod/v4";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requirePage } from "~/glue/auth.server";
import { auditCsv } from "~/modules/audit/csv.server";
import { auditQuerySchema } from "~/modules/audit/schema";
import { csvFileName, csvStreamResponse } from "~/modules/exports/csv-format.server";
import { messages } from "~/modules/messages";
import { getEventTimeZone } from "~/modules/settings/settings.server";

/** The audit trail of the page's filters as CSV, every record, streamed (admins only: pageRoles). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePage(request);
  const timeZone = await getEventTimeZone();
  const submission = parseWithZod(new URL(request.url).searchParams, { schema: auditQuerySchema(timeZone) });
  if (submission.status !== "success") {
    const reasons = Object.values(submission.error ?? {}).flatMap((list) => list ?? []);
    return new Response([messages.audit.filtersInvalid, ...reasons].join("\n"), {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return csvStreamResponse(auditCsv(submission.value.filter, timeZone), csvFileName("audit"));
}
