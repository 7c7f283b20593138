/**
 * The server's messages (app/modules/messages.ts: validation, toasts, API errors) in Arabic. English stays
 * where it is, in messages.ts, the one source the server, the API and the tests read; ar.json holds the
 * Arabic of each fixed text under "messages.<its path in messages.ts>". A screen shows a message the
 * server sent through `translateMessage`, which finds its path by its English text (a map built once).
 * Messages built from values (a count, a name) stay English until they move to the translation files.
 */
import { messages } from "../messages.ts";
import { i18nInstances, type Language } from "./i18n.ts";

function collect(tree: Record<string, unknown>, prefix: string, into: Map<string, string>): Map<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const path = `${prefix}.${key}`;
    if (typeof value === "string") {
      if (!into.has(value)) into.set(value, path);
    } else if (value && typeof value === "object") collect(value as Record<string, unknown>, path, into);
  }
  return into;
}

/** English text → its key ("This field is required" → "messages.participant.required"). */
export const messageKeys: ReadonlyMap<string, string> = collect(messages, "messages", new Map());

/** A server message in the given language: its Arabic when it has one, else as sent. */
export function translateMessage(text: string, language: Language): string {
  if (language === "en") return text;
  const key = messageKeys.get(text);
  const instance = i18nInstances[language];
  return key && instance.exists(key) ? instance.t(key) : text;
}
