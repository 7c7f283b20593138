/**
 * A challenge's hints that cost points as an admin writes them (docs/domain.md "Hints that cost points"), one
 * a line: `cost | text`, the cost in points (up to 2 decimals, 0 for a free hint, at most 100,000), the text
 * what a team reads once it unlocks the hint. Pure and browser-safe: the form checks it as it is typed.
 */
import { messages } from "../messages.ts";

const m = messages.hints;

export const MAX_PAID_HINTS = 10;
const MAX_TEXT = 2000;
const COST = /^\d{1,6}(?:\.\d{1,2})?$/;

export interface PaidHintLine {
  costCenti: number;
  text: string;
}

export function parsePaidHints(value: string | undefined | null): { hints: PaidHintLine[] } | { error: string } {
  const hints: PaidHintLine[] = [];
  const lines = (value ?? "").split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const bar = line.indexOf("|");
    const number = index + 1;
    if (bar < 0) return { error: m.lineShape(number) };
    const cost = line.slice(0, bar).trim();
    const text = line.slice(bar + 1).trim();
    if (!COST.test(cost) || Number(cost) > 100_000) return { error: m.lineCost(number) };
    if (text === "" || text.length > MAX_TEXT) return { error: m.lineText(number) };
    hints.push({ costCenti: Math.round(Number(cost) * 100), text });
  }
  if (hints.length > MAX_PAID_HINTS) return { error: m.tooMany(MAX_PAID_HINTS) };
  return { hints };
}

/** The lines the form shows for stored hints (they parse back to the same). */
export function formatPaidHints(hints: ReadonlyArray<{ costCenti: number; text: string }>): string {
  return hints.map((hint) => `${hint.costCenti % 100 === 0 ? hint.costCenti / 100 : (hint.costCenti / 100).toFixed(2)} | ${hint.text.replace(/\r?\n/g, " ")}`).join("\n");
}

/** A hint as a list item gives it (the API's JSON, an imported JSON file): its cost in points and its text. */
export interface PaidHintItem {
  cost: number;
  text: string;
}

/**
 * A list of hints (each `{ cost, text }`, or a line `cost | text`) as the form's text, checked afterwards by
 * `parsePaidHints` as the form's is; anything else is given back as it is (the form's text itself, or a value
 * the schema refuses). A cost is written as given, so a cost the form would refuse is refused.
 */
export function paidHintsText(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const lines = value.map((item: unknown) => {
    if (typeof item === "string") return item;
    const hint = item as Partial<Record<keyof PaidHintItem, unknown>> | null;
    return `${typeof hint?.cost === "number" || typeof hint?.cost === "string" ? String(hint.cost) : ""} | ${typeof hint?.text === "string" ? hint.text.replace(/\r?\n/g, " ") : ""}`;
  });
  return lines.join("\n");
}
