/**
 * One delivery of the first-blood webhook, run by a worker (workers/processors/first-blood-webhook.ts;
 * docs/domain.md "First-blood webhook"). The settings are read now (turned off meanwhile: nothing is sent).
 * The URL's host is resolved and every address it has must be public (./addresses.server.ts); the
 * connection then goes to the address that was checked, never to a second lookup's answer, so a name that
 * changes its answer between the check and the connection (DNS rebinding) reaches nothing it should not.
 * TLS still checks the certificate against the URL's host name.
 *
 * The outcome: a 2xx answer is done. A 429, a 5xx, a time-out or a network failure throws a plain error:
 * BullMQ tries again with backoff. Anything else (another 4xx, a redirect, which is not followed, an
 * address that is not public) gives up at once: BullMQ's UnrecoverableError, logged.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { request } from "node:https";
import { UnrecoverableError } from "bullmq";
import { getEnv } from "../../infrastructure/env.server.ts";
import { getLogger } from "../../infrastructure/logger.server.ts";
import { classifyAddress, hostAsAddress, mayConnectTo } from "./addresses.server.ts";
import { webhookBody, type WebhookMessage } from "./body.ts";
import { readWebhookConfig } from "./settings.server.ts";
import { signatureHeaders } from "./signature.server.ts";

/** How long one attempt may take, from the lookup to the answer's last byte. */
export const DELIVERY_TIMEOUT_MS = 5000;
/** The most of an answer read (and thrown away): a receiver cannot keep a worker reading. */
const MAX_ANSWER_BYTES = 64 * 1024;

let trustedForTests: string | null = null;

/**
 * Tests only: the certificate (PEM) of the local HTTPS receiver, trusted besides the usual authorities
 * (null: none). Refused in production; the web and worker never call it.
 */
export function trustCertificateForTests(pem: string | null) {
  if (getEnv().NODE_ENV === "production") throw new Error("trustCertificateForTests is for tests only");
  trustedForTests = pem;
}

export type DeliveryOutcome = { sent: true; status: number } | { sent: false; reason: "off" };

interface Resolved {
  address: string;
  family: 4 | 6;
}

/** The host's addresses, each allowed, or an UnrecoverableError naming the first that is not. */
async function allowedAddresses(hostname: string): Promise<Resolved[]> {
  const literal = hostAsAddress(hostname);
  const addresses: Resolved[] = literal
    ? [{ address: literal, family: literal.includes(":") ? 6 : 4 }]
    : (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => ({ address: entry.address, family: entry.family as 4 | 6 }));
  const allowLoopback = getEnv().WEBHOOK_ALLOW_LOOPBACK;
  const refused = addresses.find((entry) => !mayConnectTo(entry.address, { allowLoopback }));
  if (refused) throw new UnrecoverableError(`webhook host ${hostname} resolves to a ${classifyAddress(refused.address)} address (${refused.address}): not sent`);
  if (addresses.length === 0) throw new Error(`webhook host ${hostname} has no address`);
  return addresses;
}

/** A `lookup` that answers the one checked address, whatever the name: the connection goes where we looked. */
function pinnedLookup(pinned: Resolved): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, addresses: Resolved[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}

/** POSTs `body` to `url` through `pinned`; the answer's status. */
function post(url: URL, pinned: Resolved, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        protocol: "https:",
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || 443,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), "User-Agent": "Gatekeeper-Webhook/1", ...headers },
        lookup: pinnedLookup(pinned),
        agent: false,
        ...(trustedForTests ? { ca: trustedForTests } : {}),
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      },
      (res) => {
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        res.on("close", () => resolve(res.statusCode ?? 0));
        res.on("error", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Sends `message` as the settings say now; see the file's comment for what is retried. */
export async function deliverWebhook(message: WebhookMessage, now = new Date()): Promise<DeliveryOutcome> {
  const config = await readWebhookConfig();
  if (!config) return { sent: false, reason: "off" };
  const url = new URL(config.url);
  if (url.protocol !== "https:") throw new UnrecoverableError("webhook URL is not https: not sent");
  const [pinned] = await allowedAddresses(url.hostname);
  const body = webhookBody(config.format, message);
  const status = await post(url, pinned, body, signatureHeaders(config.secret, Math.floor(now.getTime() / 1000), body));
  if (status >= 200 && status < 300) return { sent: true, status };
  // The URL's path is a credential (Discord's and Slack's carry a token): logs and errors name the host only.
  if (status === 429 || status >= 500) throw new Error(`webhook host ${url.host} answered ${status}: will try again`);
  getLogger().warn({ host: url.host, status, kind: message.kind }, "webhook refused by its receiver: given up");
  throw new UnrecoverableError(`webhook host ${url.host} answered ${status}: given up`);
}
