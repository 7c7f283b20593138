import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { startProviderSignIn } from "~/glue/oidc.server";

// Public route: the login page's "Sign in with …" button starts a sign-in at the organisers' identity provider
// (docs/domain.md "Sign-in with the organisers' identity provider"); 404 when the event has none.
export async function action({ request }: ActionFunctionArgs) {
  return startProviderSignIn(request);
}

// Public route: a GET starts nothing (the sign-in page is where the button is).
export async function loader() {
  return redirect("/login");
}
