/**
 * Dashboard → Mailbox (admins): the mail the project's own SMTP server received, newest first, and one of
 * them whole (its text, and the links it holds as links), so a newcomer sees the flows work without a mail
 * provider (docs/domain.md "Mail"). A server that mails through another SMTP server has nothing to show here.
 */
import { isMailOff, mailSettings } from "../../infrastructure/mail.server.ts";
import { listKeptMail, mailboxDir, readKeptMail } from "../../infrastructure/mailbox.server.ts";

const LINK = /https?:\/\/[^\s<>"')]+/g;

export async function readMailboxPage(selectedId: string | null) {
  const settings = mailSettings();
  if (isMailOff(settings)) return { state: "off" as const, host: null, mails: [], selected: null };
  if (!mailboxDir()) return { state: "elsewhere" as const, host: settings.host, mails: [], selected: null };
  const [mails, selected] = await Promise.all([listKeptMail(50), selectedId ? readKeptMail(selectedId) : null]);
  return {
    state: "kept" as const,
    host: settings.host,
    mails: mails.map((mail) => ({ id: mail.id, receivedAt: mail.receivedAt, to: mail.envelope.to.join(", "), subject: mail.subject })),
    selected: selected
      ? {
          id: selected.id,
          receivedAt: selected.receivedAt,
          from: selected.from,
          to: selected.envelope.to.join(", "),
          subject: selected.subject,
          text: selected.text,
          links: [...new Set(selected.text.match(LINK) ?? [])].slice(0, 10),
        }
      : null,
  };
}

export type MailboxPage = Awaited<ReturnType<typeof readMailboxPage>>;
