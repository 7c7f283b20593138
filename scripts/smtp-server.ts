/**
 * The project's own SMTP server for dev, tests and the demo: it accepts every mail sent to it on
 * 127.0.0.1:52525 (moved by GATEKEEPER_PORT_OFFSET) and keeps each one as a JSON file in .local/smtp/mailbox
 * (the newest 2,000), which Dashboard → Mailbox lists and the tests read. Nothing leaves this machine: it
 * relays nothing. Two kinds of recipient stand for a mail provider's refusals, so the retries can be seen
 * working: an address at bounce.invalid is refused for good (550), one at defer.invalid for now (451).
 *
 * Started in the background by `npm run services:start` (scripts/lib/smtp-service.ts); SMTP_SERVER_PORT and
 * SMTP_SERVER_MAILBOX move it elsewhere (a test may run one of its own).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { LOCAL_HOST, MAILBOX_DIR, SMTP_PORT } from "./lib/local-services.ts";

/** A mail larger than this is refused (ours are a few kilobytes). */
const MAX_MAIL_BYTES = 1_000_000;
/** The newest this many mails are kept; older ones are removed as new ones arrive. */
const KEPT_MAILS = 2000;
const FORCED_EXIT_MS = 3000;

const port = process.env.SMTP_SERVER_PORT ? Number(process.env.SMTP_SERVER_PORT) : SMTP_PORT;
const mailbox = process.env.SMTP_SERVER_MAILBOX || MAILBOX_DIR;
mkdirSync(mailbox, { recursive: true });

const stamp = () => new Date().toISOString();

/** Keeps the newest KEPT_MAILS files (their names start with the time they arrived). */
function prune(): void {
  const files = readdirSync(mailbox).filter((name) => name.endsWith(".json")).sort();
  for (const name of files.slice(0, Math.max(0, files.length - KEPT_MAILS))) rmSync(path.join(mailbox, name), { force: true });
}

async function keep(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  if (stream.sizeExceeded) throw Object.assign(new Error("Message too large"), { responseCode: 552 });
  const raw = Buffer.concat(chunks);
  const parsed = await simpleParser(raw);
  const id = `${Date.now().toString().padStart(15, "0")}-${randomBytes(4).toString("hex")}`;
  const mail = {
    id,
    receivedAt: new Date().toISOString(),
    envelope: {
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
      to: session.envelope.rcptTo.map((recipient) => recipient.address),
    },
    from: parsed.from?.text ?? "",
    to: (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : []).map((address) => address.text).join(", "),
    subject: parsed.subject ?? "",
    messageId: parsed.messageId ?? "",
    // Every header line as it came (a test reads them: nothing a name or an address held became a header).
    headerLines: parsed.headerLines.map((header) => header.line),
    text: parsed.text ?? "",
    html: typeof parsed.html === "string" ? parsed.html : "",
    bytes: raw.length,
  };
  const file = path.join(mailbox, `${id}.json`);
  // Written whole, then renamed: a reader never sees half a mail.
  writeFileSync(`${file}.part`, JSON.stringify(mail));
  renameSync(`${file}.part`, file);
  prune();
  return id;
}

/** The provider's refusals the tests and the demo can ask for (see the file's comment). */
function refusalFor(address: string): { code: number; text: string } | null {
  const domain = address.slice(address.lastIndexOf("@") + 1).toLowerCase();
  if (domain === "bounce.invalid") return { code: 550, text: "5.1.1 No such mailbox here (a refusal for good)" };
  if (domain === "defer.invalid") return { code: 451, text: "4.3.0 Try again later (a refusal for now)" };
  return null;
}

const server = new SMTPServer({
  name: "gatekeeper-local-smtp",
  banner: "Gatekeeper's local SMTP server: keeps what it receives, relays nothing",
  size: MAX_MAIL_BYTES,
  authOptional: true,
  disabledCommands: ["AUTH", "STARTTLS"],
  logger: false,
  onRcptTo(address, _session, callback) {
    const refusal = refusalFor(address.address);
    if (!refusal) return callback();
    callback(Object.assign(new Error(refusal.text), { responseCode: refusal.code }));
  },
  onData(stream, session, callback) {
    keep(stream, session).then(
      (id) => callback(null, `Kept as ${id}`),
      (error: Error & { responseCode?: number }) => {
        console.error(`${stamp()} smtp: a mail was not kept: ${error.message}`);
        callback(Object.assign(new Error(error.message), { responseCode: error.responseCode ?? 451 }));
      },
    );
  },
});
server.on("error", (error) => console.error(`${stamp()} smtp: ${error.message}`));

function shutdown(signal: NodeJS.Signals): void {
  console.log(`${stamp()} smtp: ${signal}, closing`);
  setTimeout(() => process.exit(0), FORCED_EXIT_MS).unref();
  server.close(() => process.exit(0));
}
process.once("SIGTERM", shutdown);
process.once("SIGINT", shutdown);

server.listen(port, LOCAL_HOST, () => console.log(`${stamp()} smtp: listening on ${LOCAL_HOST}:${port}, keeping mail in ${mailbox}`));
