import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireLayout } from "~/glue/auth.server";

/** Unknown dashboard paths go to the dashboard's own 404 (after the role check: no probing). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireLayout(request, "/dashboard");
  return redirect("/dashboard/404");
}
