/**
 * What each mail says (docs/domain.md "Mail"), in the recipient's language (app/locales, "mail.*"), as plain
 * text and as HTML, with the event's name. Every value put in is the user's or the admins' (a login name, the
 * event's name): in the HTML it is escaped, in the subject it loses any line break or control character, and
 * it never goes into another header (the recipient is an address alone).
 */
import { directionOf, tFor, type Language } from "../i18n/i18n.ts";

export type MailContentKind = "set_password" | "password_reset" | "confirm_address";

export interface MailContentInput {
  kind: MailContentKind;
  language: Language;
  eventName: string;
  userName: string;
  link: string;
  /** The identity provider's label (`confirm_address`: a participant's account while passwords are off). */
  provider?: string;
  /** How long the link works: hours for a new account's, minutes for a reset's. */
  validHours?: number;
  validMinutes?: number;
}

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

// eslint-disable-next-line no-control-regex -- line breaks and controls are what must not reach a header
const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim();

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The texts of one mail, before they are laid out. */
function textsOf(input: MailContentInput) {
  const t = tFor(input.language);
  const values = { event: oneLine(input.eventName).slice(0, 200), name: oneLine(input.userName), provider: oneLine(input.provider ?? "") };
  const validity =
    input.kind === "password_reset"
      ? String(t("mail.validMinutes", { count: input.validMinutes ?? 30 }))
      : String(t("mail.validHours", { count: input.validHours ?? 72 }));
  const texts =
    input.kind === "set_password"
      ? { subject: t("mail.setPassword.subject", values), intro: t("mail.setPassword.intro", values), action: t("mail.setPassword.action"), ignore: t("mail.setPassword.ignore") }
      : input.kind === "confirm_address"
        ? { subject: t("mail.confirmAddress.subject", values), intro: t("mail.confirmAddress.intro", values), action: t("mail.confirmAddress.action"), ignore: t("mail.confirmAddress.ignore", values) }
        : { subject: t("mail.reset.subject", values), intro: t("mail.reset.intro", values), action: t("mail.reset.action"), ignore: t("mail.reset.ignore") };
  return {
    subject: oneLine(String(texts.subject)),
    greeting: String(t("mail.greeting", values)),
    intro: String(texts.intro),
    action: String(texts.action),
    validity,
    copy: String(t("mail.copyLink")),
    ignore: String(texts.ignore),
    signature: String(t("mail.signature", values)),
  };
}

export function mailContent(input: MailContentInput): MailContent {
  const texts = textsOf(input);
  const text = [texts.greeting, "", texts.intro, "", `${texts.action}: ${input.link}`, "", texts.validity, texts.ignore, "", texts.signature, ""].join("\n");
  const dir = directionOf(input.language);
  const paragraph = (value: string) => `<p style="margin:0 0 16px">${escapeHtml(value)}</p>`;
  const html = [
    "<!doctype html>",
    `<html lang="${input.language}" dir="${dir}"><head><meta charset="utf-8"><title>${escapeHtml(texts.subject)}</title></head>`,
    `<body style="margin:0;padding:24px;background:#f4f1ea;font-family:Arial,Helvetica,sans-serif;color:#1f1d1a" dir="${dir}">`,
    `<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px;line-height:1.5">`,
    paragraph(texts.greeting),
    paragraph(texts.intro),
    `<p style="margin:24px 0"><a href="${escapeHtml(input.link)}" style="background:#8a5a12;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(texts.action)}</a></p>`,
    paragraph(texts.validity),
    paragraph(texts.copy),
    `<p style="margin:0 0 16px;word-break:break-all" dir="ltr"><a href="${escapeHtml(input.link)}">${escapeHtml(input.link)}</a></p>`,
    paragraph(texts.ignore),
    paragraph(texts.signature),
    "</div></body></html>",
  ].join("\n");
  return { subject: texts.subject, text, html };
}
