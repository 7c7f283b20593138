import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { languageCookie } from "~/glue/language.server";
import { safeRedirectPath } from "~/modules/auth/access";
import { isLanguage } from "~/modules/i18n/i18n";

// Public route: the language switch (top navigation, dashboard) posts here, with or without JavaScript.
// It only sets the caller's own `lang` cookie and sends them back to the page they were on (same site only).
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const language = form.get("lang");
  const back = safeRedirectPath(form.get("redirectTo")) ?? "/";
  if (!isLanguage(language)) return redirect(back);
  return redirect(back, { headers: { "Set-Cookie": languageCookie(language) } });
}

// Public route: a GET changes nothing.
export async function loader() {
  return redirect("/");
}
