/**
 * Messages built from values (a count, a name), written as templates (docs/decisions/025-english-and-arabic.md).
 * The English stays in app/modules/messages.ts with i18next-style placeholders ("Gate {{number}} saved"); a
 * template is a function that fills them, so the server, the API and the tests read the same English as
 * before. app/modules/i18n/server-messages.ts reads the English back (each form compiled to one regular
 * expression) and renders the Arabic of ar.json's "messages.<path>" with the values it captured.
 *
 * A count chooses the form: English has at most three (`zero` when the count is 0, `one` when it is 1, else
 * `other`); Arabic has i18next's six in ar.json (_zero, _one, _two, _few, _many, _other).
 */

/** The English of a template: one text, or one per count. */
export interface EnglishForms {
  readonly zero?: string;
  readonly one?: string;
  readonly other: string;
}

export type TemplateValue = string | number | readonly (string | number)[];
export type TemplateValues = Readonly<Record<string, TemplateValue>>;

/** What a placeholder holding a message may hold: any message, or one of these. */
export type NestedMessage = "any" | readonly (string | MessageTemplate)[];

export interface TemplateOptions {
  /** The list placeholder whose number of items chooses the form when the text has no {{count}}. */
  readonly countOf?: string;
  /**
   * Placeholders that hold a message rather than a user's text, translated with it: "any" (another of
   * messages.ts's messages), or the few texts it can be (a template's texts or fixed ones).
   */
  readonly nested?: Readonly<Record<string, NestedMessage>>;
  /** Placeholders that always hold one of these fixed texts (each a message of messages.ts), translated with it. */
  readonly choices?: Readonly<Record<string, readonly string[]>>;
}

export interface TemplateSpec extends TemplateOptions {
  readonly english: EnglishForms;
}

/** A message function made by `template`: it returns the English; `spec` says how to read it back. */
export type MessageTemplate<A extends unknown[] = never[]> = ((...args: A) => string) & { readonly spec: TemplateSpec };

export const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** The English form a count takes. */
export function englishForm(forms: EnglishForms, count: number | undefined): string {
  if (count === 0 && forms.zero !== undefined) return forms.zero;
  if (count === 1 && forms.one !== undefined) return forms.one;
  return forms.other;
}

function text(value: TemplateValue | undefined): string {
  if (value === undefined) return "";
  return typeof value === "object" ? value.join(", ") : String(value);
}

/**
 * A message built from values. `values` turns the function's arguments into the placeholders' values
 * (a list is written "a, b, c"); a `count` value, or the length of the `countOf` list, chooses the form.
 */
export function template<A extends unknown[]>(
  english: string | EnglishForms,
  values: (...args: A) => TemplateValues,
  options: TemplateOptions = {},
): MessageTemplate<A> {
  const forms: EnglishForms = typeof english === "string" ? { other: english } : english;
  const render = (...args: A): string => {
    const filled = values(...args);
    const counted = options.countOf === undefined ? filled.count : filled[options.countOf];
    const count = typeof counted === "number" ? counted : Array.isArray(counted) ? counted.length : undefined;
    return englishForm(forms, count).replace(PLACEHOLDER, (_, name: string) => text(filled[name]));
  };
  return Object.assign(render, { spec: { ...options, english: forms } });
}

export function isTemplate(value: unknown): value is MessageTemplate {
  return typeof value === "function" && "spec" in value;
}
