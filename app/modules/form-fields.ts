/**
 * What every form field shares: text without control characters, and our words for every validation
 * failure a schema does not name itself. A field people fill in carries
 * its own message (the original platform's texts); this covers the rest: a field sent twice, a tampered hidden id, an
 * option that is not on the list, an over-long value. Without it zod answers in its own English
 * ("Invalid input: expected string, received array"), which no user should read. Every schema module
 * imports this file, so the map is in place wherever a schema parses, browser and server alike.
 */
import { z } from "zod";
import { shownFileName } from "./file-names.ts";
import { messages } from "./messages.ts";

const m = messages.validation;

z.config({
  customError(issue) {
    switch (issue.code) {
      case "invalid_type":
        if (issue.input === undefined) return m.required;
        return Array.isArray(issue.input) ? m.once : m.invalid;
      case "too_big":
        return issue.origin === "string" ? m.tooLong(Number(issue.maximum)) : m.invalid;
      case "too_small":
        return issue.origin === "string" && Number(issue.minimum) <= 1 ? m.required : m.invalid;
      case "invalid_value":
        return m.choose;
      default:
        return m.invalid;
    }
  },
});

/**
 * Control characters nobody types: Postgres refuses NUL in text outright (a 500 waiting to happen), and
 * the rest only hide things in names and messages. Tabs and line breaks stay.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export function stripControlCharacters(value: string): string {
  return value.replace(CONTROL_CHARACTERS, "");
}

/** A text field: a zod string with control characters removed before any other check. */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).overwrite(stripControlCharacters);
}

/**
 * The name to keep for an uploaded file (shown in lists, sent back in Content-Disposition): its last path
 * segment only (a name like "../../etc/passwd" names nothing on our side: objects are keyed by the server),
 * without control characters, with every other invisible or direction-changing character shown as its
 * code point (app/modules/file-names.ts), at most 255 characters; "file" when nothing is left.
 */
export function safeFileName(name: string): string {
  // Line breaks and tabs too: unlike a message, a file name has none.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const base = name.replace(/[\u0000-\u001F\u007F]/g, "").split(/[/\\]/).pop()?.trim() ?? "";
  return shownFileName(base.replace(/^\.+$/, "") || "file").slice(0, 255);
}
