/**
 * The server's messages (app/modules/messages.ts: validation, toasts, API errors) in Arabic. English stays
 * where it is, in messages.ts, the one source the server, the API and the tests read; ar.json holds the
 * Arabic of each message under "messages.<its path in messages.ts>" (docs/decisions/025-english-and-arabic.md).
 * A screen shows a message the server sent through `translateMessage`:
 *
 * - a fixed text is found by its English (a map built once);
 * - a message built from values (a `template`, app/modules/message-template.ts) is read back: each of its
 *   English forms is compiled once, at module load, to an anchored regular expression whose placeholders
 *   are capture groups; the first template (in messages.ts's order) that matches gives its values to the
 *   Arabic template, a count choosing among Arabic's plural forms. A value that is itself a message (the
 *   template's `nested` and `choices`) is translated too; a user's text (a name) is not, and is isolated
 *   (U+2068…U+2069) so a Latin name keeps its own direction inside the Arabic sentence. The API's error
 *   messages go through the same function (app/glue/api.server.ts).
 */
import { englishForm, isTemplate, PLACEHOLDER, type MessageTemplate, type NestedMessage, type TemplateSpec } from "../message-template.ts";
import { messages } from "../messages.ts";
import { i18nInstances, tFor, type Language } from "./i18n.ts";

/** A template's English form as a pattern: where its placeholders are, and what each may hold. */
interface Reader {
  readonly key: string;
  readonly spec: TemplateSpec;
  readonly form: "zero" | "one" | "other";
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

function collect(tree: Record<string, unknown>, prefix: string, texts: Map<string, string>, templates: Map<string, MessageTemplate>) {
  for (const [key, value] of Object.entries(tree)) {
    const path = `${prefix}.${key}`;
    if (typeof value === "string") {
      if (!texts.has(value)) texts.set(value, path);
    } else if (isTemplate(value)) {
      // A template at two paths (validation.tooLong and registration.tooLong) has the first one's key.
      if (![...templates.values()].includes(value)) templates.set(path, value);
    } else if (value && typeof value === "object") collect(value as Record<string, unknown>, path, texts, templates);
  }
}

const texts = new Map<string, string>();
const templates = new Map<string, MessageTemplate>();
collect(messages, "messages", texts, templates);

/** English text → its key ("This field is required" → "messages.participant.required"). */
export const messageKeys: ReadonlyMap<string, string> = texts;
/** Key → the message function built from values ("messages.dashboard.gateSaved" → gateSaved). */
export const messageTemplates: ReadonlyMap<string, MessageTemplate> = templates;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function readerOf(key: string, spec: TemplateSpec, form: Reader["form"], english: string): Reader {
  const names: string[] = [];
  let source = "";
  let last = 0;
  for (const match of english.matchAll(PLACEHOLDER)) {
    source += escape(english.slice(last, match.index));
    const name = match[1];
    const choices = spec.choices?.[name];
    // A count is digits; a choice is one of its texts; anything else is the shortest run that fits.
    if (name === "count") source += "(\\d+)";
    else if (choices) source += `(${choices.map(escape).join("|")})`;
    else source += "([\\s\\S]*?)";
    names.push(name);
    last = match.index + match[0].length;
  }
  source += escape(english.slice(last));
  return { key, spec, form, names, pattern: new RegExp(`^${source}$`) };
}

const readers: readonly Reader[] = [...templates].flatMap(([key, { spec }]) =>
  (["zero", "one", "other"] as const).flatMap((form) => (spec.english[form] === undefined ? [] : [readerOf(key, spec, form, spec.english[form]!)])),
);

/**
 * Past this length a text is not tried against the templates: no message of ours comes near it, and a
 * pattern with several open placeholders costs time growing with the square of the text's length (crafted
 * texts of 4,000 characters took up to 17 ms; of 1,000, under 2 ms for one level; MAX_NESTING bounds the levels).
 */
const LONGEST_TEMPLATED = 1000;
/** A user's text inside an Arabic sentence keeps its own direction. */
const isolated = (text: string) => (/\p{L}/u.test(text) ? `\u2068${text}\u2069` : text);

/**
 * How deep a message may hold messages ("⚠️ Line 3: …" is two): each level tries every template again on
 * what it captured, so a crafted "⚠️ ⚠️ ⚠️ …" cost 17–34 ms at 1,000 characters before this bound; past it
 * the rest is shown as sent, isolated.
 */
const MAX_NESTING = 3;

function translateValue(value: string, nested: NestedMessage, language: Language, depth: number): string {
  if (depth >= MAX_NESTING) return isolated(value);
  if (nested === "any") return translateAt(value, language, depth);
  for (const text of nested) {
    if (typeof text === "string") {
      if (text === value) return translateAt(value, language, depth);
    } else {
      // One of the templates it may hold (a wait): read it back with that template alone.
      const translated = translateTemplated(value, language, depth, text);
      if (translated !== undefined) return translated;
    }
  }
  return isolated(value);
}

function translateTemplated(text: string, language: Language, depth: number, only?: MessageTemplate): string | undefined {
  if (text.length > LONGEST_TEMPLATED) return undefined;
  const instance = i18nInstances[language];
  for (const reader of readers) {
    if (only && templates.get(reader.key) !== only) continue;
    const match = reader.pattern.exec(text);
    if (!match) continue;
    const values: Record<string, string | number> = {};
    let count: number | undefined;
    reader.names.forEach((name, index) => {
      const value = match[index + 1];
      const nested = reader.spec.nested?.[name];
      if (name === "count") count = Number(value);
      else if (reader.spec.choices?.[name]) values[name] = translateAt(value, language, depth + 1);
      else if (nested) values[name] = translateValue(value, nested, language, depth + 1);
      else values[name] = isolated(value);
    });
    // Without {{count}} in the text, the form says it (zero, one), or the list's number of items does.
    if (count === undefined && (reader.spec.countOf !== undefined || reader.form !== "other")) {
      const list = match[reader.names.indexOf(reader.spec.countOf ?? "") + 1];
      count = reader.form === "zero" ? 0 : reader.form === "one" ? 1 : list === undefined ? undefined : list.split(", ").length;
    }
    // The English of that count must be the form that matched: "1 members" is not ours.
    if (englishForm(reader.spec.english, count) !== reader.spec.english[reader.form]) continue;
    const translated = instance.t(reader.key, count === undefined ? values : { ...values, count });
    // i18next answers a key it does not hold with the key itself.
    return translated === reader.key ? undefined : translated;
  }
  return undefined;
}

/** A server message in the given language: its Arabic when it has one, else as sent. */
export function translateMessage(text: string, language: Language): string {
  return translateAt(text, language, 0);
}

function translateAt(text: string, language: Language, depth: number): string {
  if (language === "en") return text;
  const key = messageKeys.get(text);
  if (key !== undefined) {
    // The language's fixed `t` reads a text without values from its map after the first time.
    const translated = tFor(language)(key);
    return translated === key ? text : translated;
  }
  return translateTemplated(text, language, depth) ?? text;
}
