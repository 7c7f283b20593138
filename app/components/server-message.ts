import { useCallback } from "react";
import { useT } from "~/components/i18n";
import { translateMessage } from "~/modules/i18n/server-messages";

/** Shows a message the server sent (a field's error, a toast) in the page's language. */
export function useServerMessage(): (text: string) => string {
  const { language } = useT();
  return useCallback((text: string) => translateMessage(text, language), [language]);
}
