/**
 * E-mail addresses as Gatekeeper keeps them (docs/domain.md "Mail"): at most 254 characters, the shape
 * zod's e-mail check accepts (ASCII, no space, no quote, no angle bracket, no line break: nothing that
 * could end a mail header and start another), kept with the domain in lower case; two addresses that differ
 * only in case are one (the unique index on lower(email)). Pure: the browser validates with it too.
 */
import { z } from "zod";
import { text } from "../form-fields.ts";
import { languages } from "../i18n/i18n.ts";
import { messages } from "../messages.ts";

export const MAX_EMAIL_LENGTH = 254;

/** The address in the form it is kept in: trimmed, its domain in lower case. */
export function normaliseEmail(address: string): string {
  const trimmed = address.trim();
  const at = trimmed.lastIndexOf("@");
  return at < 0 ? trimmed : `${trimmed.slice(0, at)}@${trimmed.slice(at + 1).toLowerCase()}`;
}

/** The key two addresses are compared by (the unique index's lower(email)). */
export function emailKey(address: string): string {
  return normaliseEmail(address).toLowerCase();
}

const m = messages.mail;

/** An address that must be given (the forgotten-password form, a registration). */
export function emailField(required: string = m.addressRequired) {
  return text({ error: required })
    .trim()
    .min(1, required)
    .max(MAX_EMAIL_LENGTH, messages.validation.tooLong(MAX_EMAIL_LENGTH))
    .pipe(z.email(m.addressInvalid))
    .transform(normaliseEmail);
}

/** An address that may be left empty (a user's). */
export function optionalEmailField() {
  return text()
    .trim()
    .max(MAX_EMAIL_LENGTH, messages.validation.tooLong(MAX_EMAIL_LENGTH))
    .pipe(z.email(m.addressInvalid))
    .transform(normaliseEmail)
    .optional();
}

/** The language of a user's mail; a form left without one keeps English. */
export const languageField = z.enum(languages, { error: m.languageInvalid }).optional();
