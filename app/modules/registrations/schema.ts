import { z } from "zod";
import { rowId } from "../ids.ts";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";
import { optionalNameField } from "../names/names.ts";

const m = messages.registration;

export const TSHIRT_SIZES = ["S", "M", "L", "XL", "XXL"] as const;
export type TshirtSize = (typeof TSHIRT_SIZES)[number];

/** Length limits only refuse abuse (docs/domain.md): no honest name, skill or link comes near them. */
export const LIMITS = { text: 200, url: 500, email: 254, phone: 20, nationalId: 30 } as const;

/** The name of the hidden field people never see and naive bots fill in (the honeypot). */
export const HONEYPOT_FIELD = "website";

/**
 * conform turns an empty input into `undefined`, so a missing required value fails with the
 * form's own message; `trim().min(1)` catches a value of spaces only.
 */
const required = (max: number) =>
  text({ error: m.required }).trim().min(1, m.required).max(max, m.tooLong(max));

/**
 * The phone and national ID fields take numbers only. People paste them with spaces or dashes
 * ("0555 12-34-56"): those are dropped, the digits kept. The browser refuses anything else before it is
 * sent (the inputs' `pattern`, the same rule), the server refuses it again.
 */
export const DIGITS_INPUT_PATTERN = "[0-9\\s\\-]+";
const SEPARATORS = /[\s-]/g;

/** True when a typed phone or national ID holds something besides digits, spaces and dashes. */
export function hasNonDigits(value: string): boolean {
  return /\D/.test(value.replace(SEPARATORS, ""));
}

const digits = (max: number) =>
  text({ error: m.required })
    .transform((value) => value.replace(SEPARATORS, ""))
    .pipe(text().min(1, m.required).max(max, m.tooLong(max)).regex(/^\d+$/, m.digitsOnly));

const optional = (max: number) => text().trim().max(max, m.tooLong(max)).optional();

/** The registration form, shared by the page's browser validation and its action. */
export const RegistrationSchema = z.object({
  name: required(LIMITS.text),
  lastName: required(LIMITS.text),
  email: text({ error: m.required })
    .trim()
    .min(1, m.required)
    .max(LIMITS.email, m.tooLong(LIMITS.email))
    .pipe(z.email(m.email)),
  phone: digits(LIMITS.phone),
  hasTeam: z.enum(["yes", "no"], { error: (issue) => (issue.input === undefined ? m.required : m.hasTeam) }),
  // Becomes a team's name (public on the scoreboard) when accounts are made: the same rules as one.
  teamName: optionalNameField(LIMITS.text, m.tooLong(LIMITS.text)),
  nationalId: digits(LIMITS.nationalId),
  skill: required(LIMITS.text),
  linkedin: optional(LIMITS.url),
  portfolio: optional(LIMITS.url),
  major: optional(LIMITS.text),
  university: optional(LIMITS.text),
  tshirtSize: z.enum(TSHIRT_SIZES, { error: (issue) => (issue.input === undefined ? m.required : m.tshirtSize) }),
  [HONEYPOT_FIELD]: text().max(LIMITS.url).optional(),
});

export type RegistrationInput = z.output<typeof RegistrationSchema>;

/** Selected registrations to turn into participant accounts (dashboard). */
export const MAX_ACCOUNTS_PER_BATCH = 200;
export const CreateAccountsSchema = z.object({
  ids: z
    .array(rowId(), { error: messages.registration.noneSelected })
    .min(1, messages.registration.noneSelected)
    .max(MAX_ACCOUNTS_PER_BATCH, messages.registration.tooManySelected(MAX_ACCOUNTS_PER_BATCH)),
});

/** True when every error of the field is the "required" one (the field is highlighted, not captioned). */
export function isMissing(errors: readonly string[] | undefined): boolean {
  return Boolean(errors?.length) && errors!.every((error) => error === m.required);
}
