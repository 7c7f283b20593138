/**
 * Display formats shared by the live screens. Built by hand from Intl parts (not Intl's whole
 * string) so the server render and the browser produce the same characters: recent ICU versions
 * put a narrow no-break space before AM/PM, older ones a plain space, which breaks hydration.
 */

import { useMemo } from "react";
import { useT } from "~/components/i18n";
import { intlLocale, type Language } from "~/modules/i18n/i18n";

/** docs/domain.md: the event's default zone (an event setting; instants are stored in UTC). */
export const DEFAULT_EVENT_TIME_ZONE = "Africa/Algiers";

const pointsFormats: Record<Language, Intl.NumberFormat> = {
  en: new Intl.NumberFormat(intlLocale("en"), { minimumFractionDigits: 0, maximumFractionDigits: 2 }),
  ar: new Intl.NumberFormat(intlLocale("ar"), { minimumFractionDigits: 0, maximumFractionDigits: 2 }),
};

/**
 * Texts already made, by language and number: Intl's `format` costs about a microsecond a call, and a
 * board page writes five numbers a team (5 % of `/scoreboard`'s server CPU, docs/performance-log.md), most of
 * them the same numbers for every viewer. A number's text is the same for everyone. Bounded: cleared when full.
 */
const pointsTexts: Record<Language, Map<number, string>> = { en: new Map(), ar: new Map() };
const MAX_KEPT_POINTS_TEXTS = 10_000;

/** Points have up to 2 decimals: 12, 12.5, 12.25, 1,234.75 (no trailing zeros); in Arabic 12,5 and 1.234,75 (ar-DZ). */
export function formatPoints(points: number, language: Language = "en"): string {
  const value = Number.isFinite(points) ? points : 0;
  // A map does not tell -0 from 0, and Intl writes them differently: -0 is never kept.
  if (Object.is(value, -0)) return pointsFormats[language].format(value);
  const kept = pointsTexts[language];
  const known = kept.get(value);
  if (known !== undefined) return known;
  const text = pointsFormats[language].format(value);
  if (kept.size >= MAX_KEPT_POINTS_TEXTS) kept.clear();
  kept.set(value, text);
  return text;
}

/** An award's points with their sign: +25, -10.5 (a penalty). */
export function formatSignedPoints(points: number, language: Language = "en"): string {
  return points > 0 ? `+${formatPoints(points, language)}` : formatPoints(points, language);
}

/** Arabic (Algeria) writes the time on a 24-hour clock: 15:07. */
function clockText(hours24: number, minutes: number, language: Language): string {
  if (language === "ar") return `${String(hours24).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`;
  return twelveHour(hours24, minutes);
}

function twelveHour(hours24: number, minutes: number): string {
  const period = hours24 < 12 ? "AM" : "PM";
  const hours = hours24 % 12 === 0 ? 12 : hours24 % 12;
  return `${hours}:${String(minutes).padStart(2, "0")} ${period}`;
}

function validDate(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * "3:07 PM". Without a zone it uses the browser's own clock: only ever for text rendered in the
 * browser alone, never for server-rendered text (the server's zone differs).
 */
export function formatClockTime(iso: string, timeZone?: string, language: Language = "en"): string {
  const date = validDate(iso);
  if (!date) return "";
  if (!timeZone) return clockText(date.getHours(), date.getMinutes(), language);
  const parts = zonedParts(date, timeZone, language);
  return clockText(parts.hour, parts.minute, language);
}

/** "Fri 25 Apr, 3:07 PM" in the given zone (day, hour and minute on a 12-hour clock). */
export function formatDayTime(iso: string, timeZone: string = DEFAULT_EVENT_TIME_ZONE, language: Language = "en"): string {
  const date = validDate(iso);
  if (!date) return "";
  const parts = zonedParts(date, timeZone, language);
  // Arabic: "الثلاثاء 24 نوفمبر، 15:07" (ar-DZ's day and month names, Latin digits).
  if (language === "ar") return `${parts.weekday} ${parts.day} ${parts.month}، ${clockText(parts.hour, parts.minute, language)}`;
  return `${parts.weekday} ${parts.day} ${parts.month}, ${twelveHour(parts.hour, parts.minute)}`;
}

/** The formats above in the page's language (the root loader's, through react-i18next). */
export function useFormats() {
  const { language } = useT();
  return useMemo(
    () => ({
      language,
      points: (points: number) => formatPoints(points, language),
      signedPoints: (points: number) => formatSignedPoints(points, language),
      clockTime: (iso: string, timeZone?: string) => formatClockTime(iso, timeZone, language),
      dayTime: (iso: string, timeZone?: string) => formatDayTime(iso, timeZone, language),
      number: (value: number) => formatPoints(value, language),
    }),
    [language],
  );
}

interface ZonedParts {
  weekday: string;
  day: number;
  month: string;
  hour: number;
  minute: number;
}

const zonedFormats = new Map<string, Intl.DateTimeFormat>();
const ZONED_PARTS_MAX = 2_000;
const zonedPartsKept = new Map<string, Readonly<ZonedParts>>();

function zonedParts(date: Date, timeZone: string, language: Language = "en"): Readonly<ZonedParts> {
  const cacheKey = `${language} ${timeZone}`;
  let format = zonedFormats.get(cacheKey);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = {
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    };
    try {
      format = new Intl.DateTimeFormat(language === "ar" ? intlLocale("ar") : "en-GB", { ...options, timeZone });
    } catch {
      // An unknown zone name in the settings must not break the page.
      format = new Intl.DateTimeFormat(language === "ar" ? intlLocale("ar") : "en-GB", { ...options, timeZone: "UTC" });
    }
    zonedFormats.set(cacheKey, format);
  }
  // The same instants come back on every page (a gate's deadline, a submission's time): their parts are
  // kept per language, zone and millisecond (at most ZONED_PARTS_MAX, then the map starts again).
  const partsKey = `${cacheKey} ${date.getTime()}`;
  const kept = zonedPartsKept.get(partsKey);
  if (kept) return kept;
  const parts = format.formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? "";
  const zoned: Readonly<ZonedParts> = Object.freeze({
    weekday: get("weekday"),
    day: Number(get("day")),
    month: get("month"),
    hour: Number(get("hour")) % 24,
    minute: Number(get("minute")),
  });
  if (zonedPartsKept.size >= ZONED_PARTS_MAX) zonedPartsKept.clear();
  zonedPartsKept.set(partsKey, zoned);
  return zoned;
}
