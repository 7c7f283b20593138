import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireRole } from "~/utils/auth.server";

/** Unknown dashboard paths go to the dashboard's own 404 (after the role check: no probing). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin", "judge");
  return redirect("/dashboard/404");
}
