/**
 * The mail the project's own SMTP server received (scripts/smtp-server.ts keeps each as a JSON file in
 * SMTP_MAILBOX_DIR): read for Dashboard → Mailbox, so the demo shows its mail without a mail provider. Only
 * files of that directory named as the server names them are read; nothing else of the disk is reachable.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { getEnv } from "./env.server.ts";

export interface KeptMail {
  id: string;
  receivedAt: string;
  envelope: { from: string; to: string[] };
  from: string;
  to: string;
  subject: string;
  headerLines: string[];
  text: string;
  html: string;
}

const MAIL_ID = /^\d{15}-[0-9a-f]{8}$/;

/** The directory, when this process may read one (SMTP_MAILBOX_DIR, or the local server's by default outside production). */
export function mailboxDir(): string | null {
  const mail = getEnv().mail;
  return "off" in mail ? null : mail.mailboxDir;
}

async function readKept(dir: string, id: string): Promise<KeptMail | null> {
  try {
    return JSON.parse(await readFile(path.join(dir, `${id}.json`), "utf8")) as KeptMail;
  } catch {
    // Removed meanwhile (the server keeps the newest 2,000), or never there.
    return null;
  }
}

/** The newest `limit` mails, newest first. */
export async function listKeptMail(limit = 50): Promise<KeptMail[]> {
  const dir = mailboxDir();
  if (!dir) return [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const ids = names
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -5))
    .filter((id) => MAIL_ID.test(id))
    .sort()
    .reverse()
    .slice(0, limit);
  const mails = await Promise.all(ids.map((id) => readKept(dir, id)));
  return mails.filter((mail): mail is KeptMail => mail !== null);
}

/** One kept mail by its id, or null (an id the server would not give is never looked for). */
export async function readKeptMail(id: string): Promise<KeptMail | null> {
  const dir = mailboxDir();
  if (!dir || !MAIL_ID.test(id)) return null;
  return readKept(dir, id);
}
