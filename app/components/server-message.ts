import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { isLanguage } from "~/modules/i18n/i18n";
import { translateMessage } from "~/modules/i18n/server-messages";

/** Shows a message the server sent (a field's error, a toast) in the page's language. */
export function useServerMessage(): (text: string) => string {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : "en";
  return useCallback((text: string) => translateMessage(text, language), [language]);
}
