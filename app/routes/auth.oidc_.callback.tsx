import type { LoaderFunctionArgs } from "@remix-run/node";
import { finishProviderSignIn } from "~/glue/oidc.server";

// Public route: the identity provider sends the person back here; signed in as a password login would be, or
// back to /login with the reason (docs/domain.md "Sign-in with the organisers' identity provider").
export async function loader({ request }: LoaderFunctionArgs) {
  return finishProviderSignIn(request);
}
