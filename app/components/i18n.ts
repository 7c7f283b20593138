import { useContext } from "react";
import { I18nContext } from "react-i18next";
import { isLanguage, tFor, type Language } from "~/modules/i18n/i18n";

/**
 * The page's language and its `t` (decision 025): the root's I18nextProvider names the language; the `t`
 * is the one made for it when the module loaded, so a render creates nothing. Use this rather than
 * react-i18next's useTranslation, whose `t` goes through i18next's slower lookup for every text.
 */
export function useT(): { t: ReturnType<typeof tFor>; language: Language } {
  const language = useContext(I18nContext)?.i18n?.language;
  const current: Language = isLanguage(language) ? language : "en";
  return { t: tFor(current), language: current };
}
