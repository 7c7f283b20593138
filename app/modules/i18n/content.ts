/**
 * The event's content in two languages (docs/domain.md "Event content in two languages"). A gate, a
 * challenge, an announcement and a notification hold their English text and, beside it, an Arabic one the
 * organisers may add (`titleAr`, `descriptionAr`, `contentAr`, `messageAr`; null: none). A viewer reads the
 * one in their language, the other when theirs is missing. The one rule, for the server (a page's loader
 * picks before it answers) and the browser (a live event carries both texts; the page shows the viewer's).
 *
 * Stored rows carry both texts, so whatever keeps them (the shared reads of decision 029) serves every
 * language alike; what is picked for one language is never kept for another (decision 025).
 */
import type { Language } from "./i18n.ts";

/** The texts each kind of content holds in both languages (each with its Arabic beside it: `title` → `titleAr`). */
export const CONTENT_TEXTS = {
  gate: ["title", "description"],
  challenge: ["title", "description"],
  announcement: ["title", "content"],
  notification: ["message"],
} as const;

/** The text a viewer of `language` reads: the Arabic for an Arabic viewer when there is one, else the English. */
export function inLanguage(language: Language, english: string, arabic: string | null | undefined): string {
  const hasArabic = typeof arabic === "string" && arabic.trim() !== "";
  if (language === "ar") return hasArabic ? arabic : english;
  return english.trim() === "" && hasArabic ? arabic : english;
}

/** The Arabic field beside an English one: `title` → `titleAr`. */
export type ArabicOf<F extends string> = `${F}Ar`;

/** A row holding the English `fields` and, optionally, their Arabic. */
export type WithArabic<F extends string> = Record<F, string> & Partial<Record<ArabicOf<F>, string | null>>;

/**
 * The row as a viewer of `language` reads it: each of `fields` holds the viewer's text (inLanguage) and the
 * Arabic fields are gone, so what a page sends holds one language only. The row itself is not changed (a
 * shared read's value is shared by every request).
 */
export function shownIn<T extends WithArabic<F>, F extends string>(row: T, language: Language, fields: readonly F[]): Omit<T, ArabicOf<F>> {
  const shown: Record<string, unknown> = { ...row };
  for (const field of fields) {
    shown[field] = inLanguage(language, row[field], row[`${field}Ar` as ArabicOf<F>] as string | null | undefined);
    delete shown[`${field}Ar`];
  }
  return shown as Omit<T, ArabicOf<F>>;
}

/**
 * A text people wrote, isolated inside a translated sentence (U+2068 … U+2069): it keeps its own direction
 * and does not reorder the words around it (a Latin title in an Arabic sentence, an Arabic one in English).
 */
export function isolated(text: string): string {
  return `\u2068${text}\u2069`;
}

/** An optional Arabic text as typed: trimmed, and null when empty (none given). */
export function arabicOrNull(text: string | null | undefined): string | null {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
}
