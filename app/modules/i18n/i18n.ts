/**
 * The two languages of the screens (docs/decisions/025-english-and-arabic.md). One i18next instance per
 * language, made once when the module loads, with its translations bundled in (server and browser alike):
 * a request only picks one, it never initialises, clones or parses anything.
 *
 * The translations are app/locales/en.json and app/locales/ar.json; docs/glossary.md fixes the Arabic
 * words of the event's terms.
 */
import { createInstance, type i18n as I18n, type TFunction } from "i18next";
import ar from "../../locales/ar.json";
import en from "../../locales/en.json";

export const languages = ["en", "ar"] as const;
export type Language = (typeof languages)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** The cookie that remembers the user's choice (set by the /language form, read by the root loader). */
export const LANGUAGE_COOKIE = "lang";

export function isLanguage(value: unknown): value is Language {
  return value === "en" || value === "ar";
}

export function directionOf(language: Language): "ltr" | "rtl" {
  return language === "ar" ? "rtl" : "ltr";
}

/** Each language's name in itself: what the switch offers. */
export const languageNames: Record<Language, string> = { en: "English", ar: "العربية" };

function instanceFor(language: Language, translation: Record<string, unknown>): I18n {
  const instance = createInstance();
  // Synchronous: the resources are here, so `t` works as soon as this returns.
  void instance.init({
    lng: language,
    fallbackLng: false,
    resources: { [language]: { translation } },
    initAsync: false,
    showSupportNotice: false,
    // React escapes what it renders; the server's texts are not HTML.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

export const i18nInstances: Record<Language, I18n> = { en: instanceFor("en", en), ar: instanceFor("ar", ar) };

/**
 * A language's `t`, made once. A text without values (most of a page's) is looked up once and then read
 * from a map: i18next's own lookup copies its options on every call (a few microseconds each), which a
 * page rendering dozens of texts per request would pay every time. The map holds at most one entry per
 * key of the file. Texts with values (`{{name}}`, plurals) go to i18next each time.
 */
function cachedT(instance: I18n): TFunction {
  const texts = new Map<string, string>();
  const t = (key: string, options?: Record<string, unknown>) => {
    if (options !== undefined) return instance.t(key, options);
    let text = texts.get(key);
    if (text === undefined) {
      text = String(instance.t(key));
      texts.set(key, text);
    }
    return text;
  };
  return t as unknown as TFunction;
}

const fixedTs: Record<Language, TFunction> = { en: cachedT(i18nInstances.en), ar: cachedT(i18nInstances.ar) };

/** The fixed `t` of a language, for the server and the browser alike (components use `useT`). */
export function tFor(language: Language): TFunction {
  return fixedTs[language];
}

/** The root loader's language, as a route's `meta` sees it (its `matches`). */
export function languageOfMatches(matches: ReadonlyArray<{ id: string; data?: unknown }>): Language {
  const root = matches.find((match) => match.id === "root")?.data as { lang?: unknown } | undefined;
  return isLanguage(root?.lang) ? root.lang : DEFAULT_LANGUAGE;
}

/** A page's <title> in the document's language. */
export function pageTitle(matches: ReadonlyArray<{ id: string; data?: unknown }>, key: string, options?: Record<string, unknown>): string {
  return String(tFor(languageOfMatches(matches))(key, options));
}

/**
 * The Intl locale of a language. Arabic as Algeria writes it: Arabic words, Latin digits (ar-DZ with the
 * latn numbering system), so scores, times and counts read the same in both languages.
 */
export function intlLocale(language: Language): string {
  return language === "ar" ? "ar-DZ-u-nu-latn" : "en-US";
}
