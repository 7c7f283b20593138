/**
 * How a receiver knows a post came from this Gatekeeper (docs/domain.md "First-blood webhook"): the
 * header `X-Gatekeeper-Signature: sha256=<hex>` is the HMAC-SHA256, under the webhook's secret, of the
 * string `<timestamp>.<body>`: the `X-Gatekeeper-Timestamp` header's value (Unix seconds), a full stop, and
 * the raw body's bytes exactly as received. A receiver recomputes it, compares in constant time, and
 * refuses a timestamp more than a few minutes old (a replayed post).
 */
import { createHmac, randomBytes } from "node:crypto";

export const SIGNATURE_HEADER = "X-Gatekeeper-Signature";
export const TIMESTAMP_HEADER = "X-Gatekeeper-Timestamp";

/** A new secret: 32 random bytes as 64 hex characters, prefixed so it is recognised when pasted. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("hex")}`;
}

/** The two headers that sign `body` at `timestamp` (Unix seconds). */
export function signatureHeaders(secret: string, timestamp: number, body: string): Record<string, string> {
  const digest = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return { [TIMESTAMP_HEADER]: String(timestamp), [SIGNATURE_HEADER]: `sha256=${digest}` };
}
