/**
 * The translation files against the code (docs/decisions/025-english-and-arabic.md): every key the code
 * uses is in both files, every key in the files is used, the two files hold the same keys and the same
 * {{placeholders}}, and every message of app/modules/messages.ts (fixed or built from values) has its Arabic. A key is "used" when the code holds it as a whole string literal ("nav.home"):
 * the code names its keys in full, never by building them from parts.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isTemplate } from "~/modules/message-template";
import { messages } from "~/modules/messages";
import { messageKeys, messageTemplates } from "~/modules/i18n/server-messages";
import ar from "./ar.json";
import en from "./en.json";

const APP = path.resolve(import.meta.dirname, "..");
const PLURAL = /_(zero|one|two|few|many|other)$/;
const ARABIC_FORMS = ["zero", "one", "two", "few", "many", "other"] as const;
const placeholders = (text: string) => [...new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]))].sort();

function flatten(tree: Record<string, unknown>, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(full, value);
    else for (const [k, v] of flatten(value as Record<string, unknown>, full)) out.set(k, v);
  }
  return out;
}

/** Keys without their plural endings ("nav.unread_one" → "nav.unread"). */
function baseKeys(flat: Map<string, string>): Set<string> {
  return new Set([...flat.keys()].map((key) => key.replace(PLURAL, "")));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === "locales" ? [] : sourceFiles(file);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

/**
 * "messages.*" is Arabic only: the Arabic of app/modules/messages.ts's fixed texts, whose English stays in
 * messages.ts (app/modules/i18n/server-messages.ts). It is checked against messages.ts below.
 */
const SERVER_MESSAGES = "messages.";
const enFlat = flatten(en);
const arAll = flatten(ar);
const arFlat = new Map([...arAll].filter(([key]) => !key.startsWith(SERVER_MESSAGES)));
const enKeys = baseKeys(enFlat);
const arKeys = baseKeys(arFlat);
const code = sourceFiles(APP).map((file) => readFileSync(file, "utf8")).join("\n");
const namespaces = [...new Set([...enKeys].map((key) => key.split(".")[0]))];
/** Every string literal in the code that looks like one of our keys: "<namespace>.<rest>". */
const literals = new Set(
  [...code.matchAll(new RegExp(`["'\`]((?:${namespaces.join("|")})\\.[A-Za-z0-9_.]+)["'\`]`, "g"))].map((match) => match[1]),
);
/** The keys passed to t() (and <Trans i18nKey>): each must exist. */
const called = new Set([...code.matchAll(/\bt\(\s*["'`]([^"'`]+)["'`]|i18nKey=["']([^"']+)["']/g)].map((match) => match[1] ?? match[2]));

describe("translation files", () => {
  it("hold the same keys in English and Arabic", () => {
    expect([...enKeys].filter((key) => !arKeys.has(key)), "missing in ar.json").toEqual([]);
    expect([...arKeys].filter((key) => !enKeys.has(key)), "missing in en.json").toEqual([]);
  });

  it("give every translation the English text's placeholders", () => {
    const wrong: string[] = [];
    for (const key of enKeys) {
      const english = new Set([...enFlat].filter(([k]) => k.replace(PLURAL, "") === key).flatMap(([, text]) => placeholders(text)));
      for (const [k, text] of arFlat) {
        if (k.replace(PLURAL, "") !== key) continue;
        // Arabic's zero, one and two forms may spell the number out instead of {{count}}.
        const needed = [...english].filter((name) => !(name === "count" && /_(zero|one|two)$/.test(k)));
        if (needed.some((name) => !placeholders(text).includes(name))) wrong.push(k);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("give every English text of messages.ts its Arabic, and nothing else (Arabic texts stay as they are)", () => {
    const arabic = /[\u0600-\u06ff]/;
    const fixed = [...messageKeys].filter(([text]) => !arabic.test(text)).map(([, key]) => key);
    const expected = [...fixed, ...messageTemplates.keys()].sort();
    const present = [...new Set([...arAll.keys()].filter((key) => key.startsWith(SERVER_MESSAGES)).map((key) => key.replace(PLURAL, "")))].sort();
    expect(present).toEqual(expected);
    expect(en).not.toHaveProperty("messages");
  });

  it("make every message function of messages.ts a template, so it has its Arabic", () => {
    const functions: string[] = [];
    const walk = (tree: Record<string, unknown>, prefix: string) => {
      for (const [key, value] of Object.entries(tree)) {
        if (typeof value === "function") functions.push(`${prefix}.${key}`);
        else if (value && typeof value === "object") walk(value as Record<string, unknown>, `${prefix}.${key}`);
      }
    };
    walk(messages, "messages");
    expect(functions.filter((path) => !isTemplate(path.split(".").slice(1).reduce<unknown>((tree, key) => (tree as Record<string, unknown>)[key], messages)))).toEqual([]);
    // A template at two paths (validation.tooLong, registration.tooLong) has its Arabic once, at the first.
    expect(functions.length).toBeGreaterThanOrEqual(messageTemplates.size);
  });

  it("give each template's Arabic the English's placeholders, and every plural form when a count chooses", () => {
    const wrong: string[] = [];
    for (const [key, { spec }] of messageTemplates) {
      const forms = (["zero", "one", "other"] as const).filter((form) => spec.english[form] !== undefined);
      const english = new Set(forms.flatMap((form) => placeholders(spec.english[form]!)));
      const counted = english.has("count") || spec.countOf !== undefined || forms.length > 1;
      const arabic = counted ? ARABIC_FORMS.map((form) => `${key}_${form}`) : [key];
      for (const name of [...arAll.keys()].filter((k) => k.replace(PLURAL, "") === key && !arabic.includes(k))) wrong.push(`${name}: not expected`);
      for (const name of arabic) {
        const text = arAll.get(name);
        if (text === undefined) {
          wrong.push(`${name}: missing`);
          continue;
        }
        const has = placeholders(text);
        const form = PLURAL.exec(name)?.[1];
        // Arabic's zero, one and two forms may spell the count out; its zero form may leave out what English's zero leaves out (an empty list).
        const needed = [...english].filter(
          (p) => !(p === "count" && /^(zero|one|two)$/.test(form ?? "")) && !(form === "zero" && spec.english.zero !== undefined && !placeholders(spec.english.zero).includes(p)),
        );
        const missing = needed.filter((p) => !has.includes(p));
        const extra = has.filter((p) => !english.has(p) && !(p === "count" && counted));
        if (missing.length || extra.length) wrong.push(`${name}: missing {{${missing.join(", ")}}}, unknown {{${extra.join(", ")}}}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("hold every key the code uses", () => {
    // Keys passed to t(), and keys in tables (three parts and more: "dashboard.nav.teams"); a two-part
    // literal may be something else ("challenge.created" is a live event's name).
    const tabled = [...literals].filter((key) => key.split(".").length >= 3);
    const missing = [...called, ...tabled].filter((key) => namespaces.includes(key.split(".")[0]) && !enKeys.has(key));
    expect([...new Set(missing)]).toEqual([]);
  });

  it("hold no key the code does not use", () => {
    expect([...enKeys].filter((key) => !literals.has(key))).toEqual([]);
  });
});
