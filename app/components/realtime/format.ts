/**
 * Display formats shared by the live screens. Built by hand from Intl parts (not Intl's whole
 * string) so the server render and the browser produce the same characters: recent ICU versions
 * put a narrow no-break space before AM/PM, older ones a plain space, which breaks hydration.
 */

/** docs/domain.md: the event's default zone (an event setting; instants are stored in UTC). */
export const DEFAULT_EVENT_TIME_ZONE = "Africa/Algiers";

const pointsFormat = new Intl.NumberFormat("en-US", { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** Points have up to 2 decimals: 12, 12.5, 12.25, 1,234.75 (no trailing zeros). */
export function formatPoints(points: number): string {
  return pointsFormat.format(Number.isFinite(points) ? points : 0);
}

/** An award's points with their sign: +25, -10.5 (a penalty). */
export function formatSignedPoints(points: number): string {
  return points > 0 ? `+${formatPoints(points)}` : formatPoints(points);
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
export function formatClockTime(iso: string, timeZone?: string): string {
  const date = validDate(iso);
  if (!date) return "";
  if (!timeZone) return twelveHour(date.getHours(), date.getMinutes());
  const parts = zonedParts(date, timeZone);
  return twelveHour(parts.hour, parts.minute);
}

/** "Fri 25 Apr, 3:07 PM" in the given zone (day, hour and minute on a 12-hour clock). */
export function formatDayTime(iso: string, timeZone: string = DEFAULT_EVENT_TIME_ZONE): string {
  const date = validDate(iso);
  if (!date) return "";
  const parts = zonedParts(date, timeZone);
  return `${parts.weekday} ${parts.day} ${parts.month}, ${twelveHour(parts.hour, parts.minute)}`;
}

interface ZonedParts {
  weekday: string;
  day: number;
  month: string;
  hour: number;
  minute: number;
}

const zonedFormats = new Map<string, Intl.DateTimeFormat>();

function zonedParts(date: Date, timeZone: string): ZonedParts {
  let format = zonedFormats.get(timeZone);
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
      format = new Intl.DateTimeFormat("en-GB", { ...options, timeZone });
    } catch {
      // An unknown zone name in the settings must not break the page.
      format = new Intl.DateTimeFormat("en-GB", { ...options, timeZone: "UTC" });
    }
    zonedFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? "";
  return {
    weekday: get("weekday"),
    day: Number(get("day")),
    month: get("month"),
    hour: Number(get("hour")) % 24,
    minute: Number(get("minute")),
  };
}
