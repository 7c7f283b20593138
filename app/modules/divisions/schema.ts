/**
 * Divisions as typed (docs/domain.md "Divisions"): the event's list, one name a line on the Settings page,
 * and a team's division in the Teams form, the API and the import. Division names are public (the
 * scoreboard's filter shows them), so they follow the names' rules (app/modules/names/names.ts): kept in
 * NFKC form with white space collapsed, no invisible or control characters, at most 40 characters, and two
 * names with one key (case and look-alike letters ignored) are one division. Shown as text, never as HTML.
 * No server-only import: the forms validate with these in the browser too.
 */
import { z } from "zod";
import "../form-fields.ts";
import { messages } from "../messages.ts";
import { hasInvisibleCharacters, nameKey, normaliseName } from "../names/names.ts";

const m = messages.divisions;

export const DIVISION_NAME_MAX = 40;
export const MAX_DIVISIONS = 12;

/**
 * The list as an admin types it: one division a line, blank lines skipped, in the order the scoreboard's
 * filter shows them. Returns the names (normalised), or every problem, one sentence each.
 */
export function parseDivisionList(typed: string | undefined): { names: string[] } | { errors: string[] } {
  const errors: string[] = [];
  const names: string[] = [];
  const seen = new Map<string, string>();
  // The raw lines: a control character is refused here, never silently dropped from a public name.
  for (const [index, raw] of (typed ?? "").split(/\r\n|\r|\n/).entries()) {
    const line = index + 1;
    if (!raw.trim()) continue;
    if (hasInvisibleCharacters(raw.replace(/\t/g, " "))) {
      errors.push(m.onLine(line, m.invisible));
      continue;
    }
    const name = normaliseName(raw);
    if (name.length > DIVISION_NAME_MAX) {
      errors.push(m.onLine(line, m.nameTooLong(DIVISION_NAME_MAX)));
      continue;
    }
    const key = nameKey(name);
    const other = seen.get(key);
    if (other !== undefined) {
      errors.push(m.duplicate(name, other));
      continue;
    }
    seen.set(key, name);
    names.push(name);
  }
  if (names.length > MAX_DIVISIONS) errors.push(m.tooMany(MAX_DIVISIONS));
  return errors.length ? { errors } : { names };
}

/**
 * The Settings page's divisions form: the whole list, one a line (empty: no divisions). It checks; the list
 * itself is `divisionList` of what it accepted (no transform here: conform reads the schema's constraints).
 */
export const DivisionsFormSchema = z
  // Not `text()`, which strips control characters: a public name with one is refused, not quietly changed.
  .object({ divisions: z.string().max(4000, messages.dashboard.tooLong).optional() })
  .superRefine((value, ctx) => {
    const parsed = parseDivisionList(value.divisions);
    if ("errors" in parsed) for (const message of parsed.errors) ctx.addIssue({ code: "custom", path: ["divisions"], message });
  });

/** The names of a list DivisionsFormSchema accepted. */
export function divisionList(typed: string | undefined): string[] {
  const parsed = parseDivisionList(typed);
  if ("errors" in parsed) throw new Error(`an unchecked list of divisions: ${parsed.errors.join("; ")}`);
  return parsed.names;
}

/**
 * A team's division as a form, the API or a file gives it: a name of the event's list (checked against the
 * list by the teams module, which holds it), normalised; empty or left out: none.
 */
export const divisionField = z
  .string({ error: m.unknown([]) })
  .refine((name) => !hasInvisibleCharacters(name.replace(/\t/g, " ")), m.invisible)
  .overwrite(normaliseName)
  .max(DIVISION_NAME_MAX, m.nameTooLong(DIVISION_NAME_MAX))
  .optional();

/** The division among `names` that `typed` names (case and look-alikes ignored), as the list spells it. */
export function divisionNamed(names: readonly string[], typed: string): string | null {
  const key = nameKey(typed);
  return names.find((name) => nameKey(name) === key) ?? null;
}
