/**
 * Outgoing mail through SMTP (nodemailer; docs/decisions/040-mail-and-password-links.md): one transport per process, made from
 * the settings the environment gives (env.server.ts, SMTP_*). Knows no rule: what to send, to whom and when
 * is app/modules/mail's; only a worker sends (never a request).
 */
import nodemailer, { type Transporter } from "nodemailer";
import { getEnv, type MailOff, type MailSettings } from "./env.server.ts";

/** The mail settings, or why there are none (SMTP_HOST unset in production, or "none"). */
export function mailSettings(): MailSettings | MailOff {
  return getEnv().mail;
}

export function isMailOff(settings: MailSettings | MailOff): settings is MailOff {
  return "off" in settings;
}

/** How long one attempt may take, from the connection to the server's answer. */
const SEND_TIMEOUT_MS = 15_000;

let transport: { settings: MailSettings; transporter: Transporter } | undefined;

function transporterFor(settings: MailSettings): Transporter {
  if (transport?.settings === settings) return transport.transporter;
  transport?.transporter.close();
  const transporter = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    // implicit: TLS from the first byte (465); starttls: the server must upgrade, or nothing is sent; off: plain.
    secure: settings.tls === "implicit",
    requireTLS: settings.tls === "starttls",
    ignoreTLS: settings.tls === "off",
    ...(settings.user !== undefined && settings.password !== undefined ? { auth: { user: settings.user, pass: settings.password } } : {}),
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
    // Never a line of the conversation in our logs: it holds the links.
    logger: false,
    debug: false,
  });
  transport = { settings, transporter };
  return transporter;
}

export interface OutgoingMail {
  /** One address, checked (app/modules/mail/addresses.ts): never a display name, so nothing typed reaches a header but it. */
  to: string;
  subject: string;
  text: string;
  html: string;
  language: "en" | "ar";
}

/** What the SMTP server answered when it took the mail ("250 …"). */
export interface SentMail {
  response: string;
  messageId: string;
}

/** A refusal or a failure: `permanent` when the server refused for good (a 5xx), so trying again is useless. */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "MailSendError";
  }
}

/** One line of a server's answer or an error, cut short: what an admin reads on the user's page. */
function shortLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- an SMTP answer may hold line breaks and controls
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim().slice(0, 300);
}

/** Sends one mail; throws MailSendError (permanent or not) when it is not taken. */
export async function sendMail(settings: MailSettings, mail: OutgoingMail): Promise<SentMail> {
  try {
    const info = (await transporterFor(settings).sendMail({
      from: settings.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: { "Content-Language": mail.language },
    })) as { response?: string; messageId?: string; rejected?: unknown[] };
    if (Array.isArray(info.rejected) && info.rejected.length > 0) throw new MailSendError(shortLine(info.response ?? "recipient refused"), true);
    return { response: shortLine(info.response ?? ""), messageId: info.messageId ?? "" };
  } catch (error) {
    if (error instanceof MailSendError) throw error;
    const code = (error as { responseCode?: number }).responseCode;
    const message = shortLine(error instanceof Error ? error.message : String(error));
    throw new MailSendError(message || "the mail was not sent", code !== undefined && code >= 500 && code < 600);
  }
}

/** Closes the pooled connections (a worker's shutdown, a test's end). */
export function closeMail(): void {
  transport?.transporter.close();
  transport = undefined;
}
