/**
 * datetime-local inputs carry no zone: the admin types the event's wall-clock time. These convert
 * between that text ("2025-04-24T19:00") in a named zone and UTC instants, with Intl only.
 */
export const DEFAULT_TIME_ZONE = "Africa/Algiers";

function offsetMinutes(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(instant);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour") % 24, get("minute"), get("second"));
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

const localPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Whether the text has the shape of a datetime-local value ("2025-04-24T19:00", seconds optional). */
export function isLocalTimeText(local: string): boolean {
  return localPattern.test(local.trim());
}

/**
 * Whether a datetime-local value names a time that exists on the calendar and the clock: no 30
 * February, no 24:00 or 19:60. Date.UTC would roll those over into another day without a word.
 */
export function isRealLocalTime(local: string): boolean {
  const match = localPattern.exec(local.trim());
  if (!match) return false;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const asUtc = new Date(Date.UTC(y, mo - 1, d, h, mi, s || 0));
  return (
    asUtc.getUTCFullYear() === y &&
    asUtc.getUTCMonth() === mo - 1 &&
    asUtc.getUTCDate() === d &&
    asUtc.getUTCHours() === h &&
    asUtc.getUTCMinutes() === mi &&
    asUtc.getUTCSeconds() === (s || 0)
  );
}

/**
 * "2025-04-24T19:00" in `timeZone` → the UTC instant; null when the text is not such a value, not a
 * real time (isRealLocalTime), or a time the zone skips.
 */
export function zonedLocalToUtc(local: string, timeZone: string): Date | null {
  const match = localPattern.exec(local.trim());
  if (!match || !isRealLocalTime(local)) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const naive = Date.UTC(y, mo - 1, d, h, mi, s || 0);
  // Two passes settle the offset around daylight-saving changes.
  let guess = naive - offsetMinutes(new Date(naive), timeZone) * 60_000;
  guess = naive - offsetMinutes(new Date(guess), timeZone) * 60_000;
  const instant = new Date(guess);
  // A wall-clock time the zone skips (02:30 on a spring-forward night) reads back as another time:
  // refused, never moved an hour.
  if (utcToZonedLocal(instant, timeZone) !== local.trim().slice(0, 16)) return null;
  return instant;
}

/** The UTC instant as "YYYY-MM-DDTHH:mm" wall-clock time in `timeZone` (a datetime-local value). */
export function utcToZonedLocal(instant: Date, timeZone: string): string {
  const shifted = new Date(instant.getTime() + offsetMinutes(instant, timeZone) * 60_000);
  return shifted.toISOString().slice(0, 16);
}
