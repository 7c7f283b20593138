/**
 * The mail the project's own SMTP server kept (scripts/smtp-server.ts writes each as a JSON file in its
 * mailbox), as a test reads it: the mails to one address that arrived since a moment, waited for without a
 * fixed sleep. Addresses are unique per test, so tests running beside each other never read each other's mail.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { KeptMail } from "../../app/infrastructure/mailbox.server.ts";
import { MAILBOX_DIR } from "../../scripts/lib/local-services.ts";

/** Every kept mail to `address` (any case) that arrived at or after `since`, oldest first. */
export function mailsTo(address: string, since: number, dir = MAILBOX_DIR): KeptMail[] {
  const wanted = address.toLowerCase();
  const from = String(since - 1000).padStart(15, "0");
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".json") && name >= from)
    .sort()
    .flatMap((name) => {
      try {
        return [JSON.parse(readFileSync(path.join(dir, name), "utf8")) as KeptMail];
      } catch {
        return [];
      }
    })
    .filter((mail) => mail.envelope.to.some((to) => to.toLowerCase() === wanted));
}

/** Waits until `count` mails to the address arrived (15 s at most); returns them. */
export async function waitForMails(address: string, since: number, count = 1, timeoutMs = 15_000): Promise<KeptMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = mailsTo(address, since);
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`${found.length} of ${count} mail(s) to ${address} arrived within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The set-password link a mail carries, and its token. */
export function linkIn(mail: KeptMail): { url: string; token: string } {
  const url = /https?:\/\/\S+\/set-password\?token=[A-Za-z0-9_.%-]+/.exec(mail.text)?.[0];
  if (!url) throw new Error(`no set-password link in the mail "${mail.subject}"`);
  return { url, token: new URL(url).searchParams.get("token")! };
}
