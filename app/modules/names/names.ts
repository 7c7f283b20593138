/**
 * User and team names (team names are public on the scoreboard): what is kept, what is refused, and
 * when two names count as the same. The rule, in docs/RELIABILITY.md "Bad input":
 *
 * - A name is kept in Unicode NFKC form (full-width "Ｐｈｏｅｎｉｘ" is "Phoenix"), spaces collapsed.
 * - Invisible characters are refused: control characters (C0 and C1), zero-width and other default-ignorable code points, direction
 *   marks and other format characters, unassigned and private-use code points, blank look-alikes
 *   (Hangul fillers, the blank Braille pattern).
 * - Two names are the same when their keys are equal: case ignored, and confusable look-alikes
 *   (Cyrillic "а" for Latin "a", "0" for "O", "rn" for "m") mapped to one prototype, using the Unicode
 *   confusables data (UTS #39 skeletons, through the unhomoglyph library: docs/decisions/016).
 *   Combining marks that belong to no script (Unicode's Inherited script: the accents and dots any letter
 *   may carry, the Arabic vowel marks) are left out of the key, so "kraken1" with a dot below, "José" and
 *   "Jose", "مُحَمَّد" and "محمد" are one name; a script's own vowel signs (Devanagari's) are kept.
 *   The database keeps each name's key under a unique index, so a race cannot slip a look-alike in.
 */
import unhomoglyph from "unhomoglyph";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";

// \uFEFF is also white space to JavaScript: names are checked before white space is collapsed.
const INVISIBLE = /[\p{Cc}\p{Default_Ignorable_Code_Point}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\u115F\u1160\u2800\u3164\uFFA0]/u;

/** The form a name is kept in: NFKC, every run of white space one space, trimmed. */
export function normaliseName(raw: string): string {
  return raw.normalize("NFKC").replace(/\s+/gu, " ").trim();
}

export function hasInvisibleCharacters(name: string): boolean {
  return INVISIBLE.test(name);
}

/** The name without its invisible characters: for names stored before the rule (a registration's team). */
export function withoutInvisibleCharacters(name: string): string {
  return name.replace(new RegExp(INVISIBLE.source, "gu"), "");
}

/** UTS #39 skeleton: NFD, each character replaced by its confusable prototype, NFD again. */
function skeleton(value: string): string {
  return unhomoglyph(value.normalize("NFD")).normalize("NFD");
}

/** Combining marks of the Inherited script (after NFD): U+0300–U+036F, U+1AB0–U+1AFF, U+1DC0–U+1DFF, U+20D0–U+20FF, U+FE20–U+FE2F, the Arabic harakat. */
const INHERITED_MARKS = /(?=\p{Script=Inherited})\p{M}/gu;

/**
 * What makes two names the same. A skeleton is case-sensitive ("I" looks like "l", "i" does not; "m"
 * like "rn", "M" not), so skeletons are taken through lower and upper case in turn: "Modern" and
 * "rnodern", "ALICE" and "AIice", "Ph0enix" and "phoenix" each share one key; then the marks of no
 * script are dropped ("kraken1" and "kraken1" with U+0323 share one too). Not for display.
 */
export function nameKey(name: string): string {
  return skeleton(skeleton(skeleton(normaliseName(name)).toLowerCase()).toUpperCase()).toLowerCase().replace(INHERITED_MARKS, "");
}

/** A name as a row keeps it: its normal form and its key. */
export function nameColumns(name: string): { name: string; nameKey: string } {
  return { name: normaliseName(name), nameKey: nameKey(name) };
}

/** The unique indexes that refuse a name already taken, or one that looks the same. */
export const NAME_CONSTRAINTS = {
  users: ["users_name_lower_key", "users_name_key_key"],
  teams: ["teams_name_lower_key", "teams_name_key_key"],
} as const;

/**
 * A user's or team's name in a form, the API or an import: kept in its normal form, refused with a
 * sentence when it is empty, too long, or hides invisible characters.
 */
export function nameField(max: number) {
  // Checked before white space is collapsed: a zero-width no-break space must be refused, not made a space.
  return text({ error: messages.dashboard.nameRequired })
    .refine((name) => !hasInvisibleCharacters(name), messages.dashboard.nameInvisible)
    .overwrite(normaliseName)
    .min(1, messages.dashboard.nameRequired)
    .max(max, messages.dashboard.tooLong);
}

/** The same rules for a name that may be left out (a registration's team). */
export function optionalNameField(max: number, tooLong: string) {
  return text()
    .refine((name) => !hasInvisibleCharacters(name), messages.dashboard.nameInvisible)
    .overwrite(normaliseName)
    .max(max, tooLong)
    .optional();
}
