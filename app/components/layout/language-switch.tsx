import { Form, useLocation } from "@remix-run/react";
import { useT } from "~/components/i18n";
import { languageNames, type Language } from "~/modules/i18n/i18n";

/**
 * English ⇄ العربية: a form POST to /language, which remembers the choice in a cookie and sends the user
 * back here, so it works without JavaScript and the next server-rendered page is already in that language.
 */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t, language } = useT();
  const location = useLocation();
  const other: Language = language === "ar" ? "en" : "ar";
  return (
    // discover="none": no eager discovery should lazy route discovery be turned on again (it is off:
    // docs/decisions/052-route-discovery-off.md). Discovered eagerly as the page hydrated, the page lost its
    // <link rel="modulepreload"> tags (tests/e2e/auth.spec.ts saw it).
    <Form method="post" action="/language" discover="none" className={["language-switch", className].filter(Boolean).join(" ")}>
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <button type="submit" name="lang" value={other} className="language-switch__button" lang={other} title={t("nav.language")}>
        {languageNames[other]}
      </button>
    </Form>
  );
}
