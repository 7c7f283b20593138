import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { logout } from "~/glue/auth.server";

// Public route: logging out needs no role; it only ends the caller's own session (POST only).
export async function action({ request }: ActionFunctionArgs) {
  return logout(request, "/");
}

// Public route: a GET cannot log anyone out (a link or image on another site must not do it).
export async function loader() {
  return redirect("/");
}
