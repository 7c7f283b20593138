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

/** At most this many texts with values are kept per language; past it the map starts again. */
const INTERPOLATED_MAX = 4_000;
/** Nor a text whose key and values are longer than this: at most about 4,000 × 2 × 512 characters a language. */
const INTERPOLATED_KEY_MAX = 512;

/**
 * The key of a text with values, or null when a value is not a string, number or boolean (an object,
 * say: such a call goes to i18next every time). Option names come from our code and are joined with
 * characters none holds; each value carries its length, so a value holding those characters (a team's name
 * is the user's) cannot make two different calls share a key.
 */
function interpolationKey(key: string, options: Record<string, unknown>): string | null {
  let joined = key;
  for (const name in options) {
    const value = options[name];
    const kind = typeof value;
    if (kind !== "string" && kind !== "number" && kind !== "boolean") return null;
    const text = String(value);
    joined += `\u0000${name}\u0001${kind[0]}${text.length}:${text}`;
  }
  return joined;
}

/**
 * A language's `t`, made once. A text is looked up in i18next once per key and values, then read from a
 * map: i18next's own lookup copies its options on every call and, for a text with values, builds its
 * regular expressions again (a few microseconds each), which a page rendering dozens of texts per request
 * would pay every time. The text depends on nothing but the key and the values, so a kept text is the
 * same for whoever asks. Texts without values: at most one entry per key of the file; texts with values
 * (`{{name}}`, plurals): at most INTERPOLATED_MAX, none with values longer than INTERPOLATED_KEY_MAX, then the
 * map is emptied.
 */
function cachedT(instance: I18n): TFunction {
  const texts = new Map<string, string>();
  const interpolated = new Map<string, string>();
  const t = (key: string, options?: Record<string, unknown>) => {
    if (options !== undefined) {
      const joined = interpolationKey(key, options);
      // Long values (a question and its answer quoted in a text) are not kept: the map is bounded in bytes too.
      if (joined === null || joined.length > INTERPOLATED_KEY_MAX) return instance.t(key, options);
      let text = interpolated.get(joined);
      if (text === undefined) {
        const made: unknown = instance.t(key, options);
        if (typeof made !== "string") return made;
        if (interpolated.size >= INTERPOLATED_MAX) interpolated.clear();
        interpolated.set(joined, made);
        text = made;
      }
      return text;
    }
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
