/**
 * The first-blood webhook's settings (Dashboard → Settings; docs/domain.md "First-blood webhook"), kept in
 * the event's settings row: the URL (null: off), the body's format and the signing secret. The secret is
 * made here and answered once to the admin who made it; nothing else reads it but the delivery. The URL of
 * a chat's webhook is a credential too (Discord's and Slack's carry a token in their path): the audit trail
 * records its host only.
 */
import { eq } from "drizzle-orm";
import { eventSettings } from "../../../db/schema.ts";
import { getDb } from "../../infrastructure/db.server.ts";
import { getEnv } from "../../infrastructure/env.server.ts";
import { recordAudit, type Actor } from "../audit/audit.server.ts";
import { DomainError } from "../errors.ts";
import { messages } from "../messages.ts";
import { hostAsAddress, mayConnectTo } from "./addresses.server.ts";
import type { WebhookFormat } from "./body.ts";
import { newWebhookSecret } from "./signature.server.ts";

const m = messages.webhooks;

/** What the settings page shows: never the secret, only whether there is one. */
export interface WebhookView {
  url: string;
  format: WebhookFormat;
  hasSecret: boolean;
}

/** What a delivery needs; server-only, never sent to a page. */
export interface WebhookConfig {
  url: string;
  format: WebhookFormat;
  secret: string;
}

const columns = {
  url: eventSettings.firstBloodWebhookUrl,
  format: eventSettings.firstBloodWebhookFormat,
  secret: eventSettings.firstBloodWebhookSecret,
};

/** The webhook as a delivery uses it; null when it is off (no URL, or no secret yet). */
export async function readWebhookConfig(): Promise<WebhookConfig | null> {
  const [row] = await getDb().select(columns).from(eventSettings).where(eq(eventSettings.id, 1)).limit(1);
  if (!row?.url || !row.secret) return null;
  return { url: row.url, format: row.format, secret: row.secret };
}

export async function readWebhookView(): Promise<WebhookView> {
  const [row] = await getDb().select(columns).from(eventSettings).where(eq(eventSettings.id, 1)).limit(1);
  return { url: row?.url ?? "", format: row?.format ?? "discord", hasSecret: Boolean(row?.secret) };
}

/** What the audit trail keeps of the settings: on or off, the URL's host, the format. */
function audited(row: { url: string | null; format: WebhookFormat }) {
  return { webhook: Boolean(row.url), host: row.url ? new URL(row.url).host : null, format: row.format };
}

/**
 * Refuses an address that names this machine or a private network outright: an IP address that is not
 * public, or "localhost". A name's addresses are checked at every delivery (./delivery.server.ts).
 */
function assertMayPostTo(url: string) {
  const { hostname } = new URL(url);
  const allowLoopback = getEnv().WEBHOOK_ALLOW_LOOPBACK;
  const address = hostAsAddress(hostname);
  const local = /(^|\.)localhost\.?$/i.test(hostname);
  if ((address && !mayConnectTo(address, { allowLoopback })) || (local && !allowLoopback)) throw new DomainError(m.urlNotPublic, { status: 400, field: "url" });
}

/**
 * Saves the URL (null: off) and the format. The first save with a URL makes the secret: the answer carries
 * it, the one time it is shown. Audited when something changed (a new secret says so, never what it is).
 */
export async function saveWebhookSettings(actor: Actor, value: { url: string | null; format: WebhookFormat }): Promise<{ newSecret: string | null }> {
  if (value.url) assertMayPostTo(value.url);
  return getDb().transaction(async (tx) => {
    const [before] = await tx.select(columns).from(eventSettings).where(eq(eventSettings.id, 1)).for("update");
    if (!before) throw new DomainError(m.needsFinal, { status: 400, field: "url" });
    const newSecret = value.url && !before.secret ? newWebhookSecret() : null;
    if (before.url === value.url && before.format === value.format && !newSecret) return { newSecret };
    await tx
      .update(eventSettings)
      .set({ firstBloodWebhookUrl: value.url, firstBloodWebhookFormat: value.format, ...(newSecret ? { firstBloodWebhookSecret: newSecret } : {}) })
      .where(eq(eventSettings.id, 1));
    await recordAudit(tx, actor, { kind: "event.webhook", before: audited(before), after: { ...audited(value), ...(newSecret ? { secretIssued: true } : {}) } });
    return { newSecret };
  });
}

/** Replaces the secret (the old one stops verifying at once); the answer carries the new one, shown once. */
export async function renewWebhookSecret(actor: Actor): Promise<string> {
  return getDb().transaction(async (tx) => {
    const [before] = await tx.select(columns).from(eventSettings).where(eq(eventSettings.id, 1)).for("update");
    if (!before?.url) throw new DomainError(m.needsUrl, { status: 400 });
    const secret = newWebhookSecret();
    await tx.update(eventSettings).set({ firstBloodWebhookSecret: secret }).where(eq(eventSettings.id, 1));
    await recordAudit(tx, actor, { kind: "event.webhook", before: audited(before), after: { ...audited(before), secretIssued: true } });
    return secret;
  });
}
