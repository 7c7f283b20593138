/**
 * The settings page's first-blood webhook forms (Dashboard → Settings; docs/domain.md "First-blood
 * webhook"): save the address and format, make a new secret, send a test message. A new secret is answered
 * on the page itself, once: no redirect, and no cache may keep the answer (./secret-pages.server.ts).
 */
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import type { Actor } from "../modules/audit/audit.server.ts";
import { messages } from "../modules/messages.ts";
import { WebhookActionSchema, WebhookSettingsSchema } from "../modules/webhooks/schema.ts";
import { renewWebhookSecret, saveWebhookSettings } from "../modules/webhooks/settings.server.ts";
import { enqueueTestWebhook } from "../modules/webhooks/webhooks.server.ts";
import { dashboardFormFailure, dashboardToastFailure } from "./failures.server.ts";
import { SECRET_PAGE_HEADERS } from "./secret-pages.server.ts";
import { redirectWithToast } from "./toast.server.ts";

const m = messages.webhooks;

/** The intents these forms post. */
export const WEBHOOK_INTENTS = ["webhook", "webhook-secret", "webhook-test"] as const;

export function isWebhookIntent(intent: string): boolean {
  return (WEBHOOK_INTENTS as readonly string[]).includes(intent);
}

/** The action's answer to the webhook form: its reply, and a new secret to show once. */
export interface WebhookFormResult {
  intent: "webhook";
  /** The form's reply; null for the "new secret" button, which types nothing. */
  result: SubmissionResult<string[]> | null;
  secret: string | null;
}

export async function webhookSettingsAction(actor: Actor, formData: FormData, pageUrl: string) {
  const reply = (result: SubmissionResult<string[]> | null, secret: string | null, init?: ResponseInit) =>
    data<WebhookFormResult>({ intent: "webhook", result, secret }, init);
  const button = WebhookActionSchema.safeParse(Object.fromEntries(formData));
  if (button.success && button.data.intent === "webhook-test") {
    try {
      return redirectWithToast(pageUrl, { type: "success", title: await enqueueTestWebhook() });
    } catch (error) {
      return dashboardToastFailure(pageUrl, error, "webhook test not queued");
    }
  }
  if (button.success) {
    try {
      const secret = await renewWebhookSecret(actor);
      return reply(null, secret, { headers: SECRET_PAGE_HEADERS });
    } catch (error) {
      return dashboardToastFailure(pageUrl, error, "webhook secret not renewed");
    }
  }
  const submission = parseWithZod(formData, { schema: WebhookSettingsSchema });
  if (submission.status !== "success") return reply(submission.reply(), null, { status: 400 });
  const { url, format } = submission.value;
  try {
    const { newSecret } = await saveWebhookSettings(actor, { url: url || null, format });
    if (newSecret) return reply(submission.reply(), newSecret, { headers: SECRET_PAGE_HEADERS });
  } catch (error) {
    const failed = dashboardFormFailure(submission, error, { log: "webhook settings not saved", fieldOf: (refusal) => refusal?.field });
    return reply(failed.result, null, failed.init);
  }
  return redirectWithToast(pageUrl, { type: "success", title: url ? m.saved : m.turnedOff });
}
