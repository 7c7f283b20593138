import { z } from "zod";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";
import { WEBHOOK_FORMATS } from "./body.ts";

const m = messages.webhooks;

export const WEBHOOK_URL_MAX = 2000;

/**
 * What is wrong with a webhook address as typed, or null: an https URL with no user name or password
 * (docs/domain.md "First-blood webhook"). Whether its host is public is the server's to say, at the save
 * (an address written as an IP) and again at every delivery (the name's addresses then).
 */
export function webhookUrlProblem(value: string): string | null {
  if (value.length > WEBHOOK_URL_MAX) return m.urlTooLong;
  if (!URL.canParse(value)) return m.urlInvalid;
  const url = new URL(value);
  if (url.protocol !== "https:") return m.httpsOnly;
  if (!url.hostname) return m.urlInvalid;
  if (url.username || url.password) return m.urlCredentials;
  return null;
}

/** Dashboard → Settings, "First-blood webhook": an empty address turns it off. */
export const WebhookSettingsSchema = z.object({
  intent: z.literal("webhook"),
  url: text()
    .trim()
    .optional()
    .superRefine((value, context) => {
      const problem = value ? webhookUrlProblem(value) : null;
      if (problem) context.addIssue({ code: "custom", message: problem });
    }),
  format: z.enum(WEBHOOK_FORMATS, { error: m.formatInvalid }),
});

/** The two buttons beside it: a new secret, a test message. */
export const WebhookActionSchema = z.object({ intent: z.enum(["webhook-secret", "webhook-test"]) });
