import { z } from "zod";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";

export const RequestSchema = z.object({
  message: text({ error: "This field is required" }).trim().min(1, "This field is required").max(2000),
});

const m = messages.threads;

/** A reply in a thread, from either side: plain text. */
export const ReplySchema = z.object({
  body: text({ error: m.replyRequired }).trim().min(1, m.replyRequired).max(4000, m.replyTooLong),
});

/** A question about a challenge, from its page. */
export const QuestionSchema = z.object({
  message: text({ error: m.replyRequired }).trim().min(1, m.replyRequired).max(2000, m.questionTooLong),
});

/** Publishing a question's answer to every team: an announcement (its own schema's limits). */
export { AnnouncementSchema as PublishAnswerSchema } from "../announcements/schema.ts";

const kind = z.enum(["mentor", "needs", "question"]);
const status = z.enum(["waiting", "open", "claimed", "answered", "closed"]);

/** The queue's filters, from the address (a bad value is ignored: the unfiltered queue). */
export const ThreadFilterSchema = z.object({
  kind: kind.optional().catch(undefined),
  gate: z.coerce.number().int().min(1).max(5).optional().catch(undefined),
  challenge: z.coerce.number().int().min(1).max(2_147_483_647).optional().catch(undefined),
  status: status.optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1_000_000).optional().catch(undefined),
});
