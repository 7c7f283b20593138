/**
 * Which language a request is answered in (docs/decisions/025-english-and-arabic.md): the `lang` cookie
 * the user chose with the switch, else the browser's Accept-Language, else English. A few string
 * operations per request: no parsing library is set up, nothing is cached per user.
 */
import Negotiator from "negotiator";
import { getEnv } from "../infrastructure/env.server.ts";
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, languages, type Language } from "../modules/i18n/i18n.ts";

const COOKIE_PATTERN = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([^;]*)`);
/** "ar" or "ar-…" as one of the header's ranges. */
const ARABIC_RANGE = /(?:^|,)\s*ar(?:-[^,;]*)?\s*(?:[;,]|$)/i;
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The language chosen with the switch, if the cookie holds one we speak. */
export function cookieLanguage(cookieHeader: string | null): Language | null {
  if (!cookieHeader) return null;
  const value = COOKIE_PATTERN.exec(cookieHeader)?.[1]?.trim();
  return isLanguage(value) ? value : null;
}

/** The best of our languages for an Accept-Language header (q-values honoured), or null. */
export function acceptedLanguage(acceptLanguage: string | null): Language | null {
  if (!acceptLanguage) return null;
  // Most browsers ask for no Arabic at all: then there is nothing to weigh (English or the default).
  if (!ARABIC_RANGE.test(acceptLanguage)) return DEFAULT_LANGUAGE;
  const best = new Negotiator({ headers: { "accept-language": acceptLanguage } }).language([...languages]);
  return isLanguage(best) ? best : null;
}

/** The request's language: cookie, then Accept-Language, then English. */
export function languageOf(request: Request): Language {
  return cookieLanguage(request.headers.get("Cookie")) ?? acceptedLanguage(request.headers.get("Accept-Language")) ?? DEFAULT_LANGUAGE;
}

/** The Set-Cookie value that remembers a choice for a year (read by the server only). */
export function languageCookie(language: Language, secure = getEnv().NODE_ENV === "production"): string {
  return `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`;
}
