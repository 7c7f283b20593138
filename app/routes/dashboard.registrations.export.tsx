import type { LoaderFunctionArgs } from "@remix-run/node";
import { csvFileName, registrationsCsv } from "~/modules/registrations/csv.server";
import { listRegistrations } from "~/modules/registrations/registrations.server";
import { requireRole } from "~/utils/auth.server";

/** Resource route: the registrations (optionally the current search) as a CSV download. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const q = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200);
  const csv = registrationsCsv(await listRegistrations(q));
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csvFileName("registrations")}"`,
      "Cache-Control": "no-store",
    },
  });
}
