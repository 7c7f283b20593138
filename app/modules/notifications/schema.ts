import { z } from "zod";
import { text } from "../form-fields.ts";

// The original platform showed no validation; an empty message would be a blank popup, so it must have text.
export const NotificationSchema = z.object({
  message: text({ error: "Please write a message" }).trim().min(1, "Please write a message").max(1000),
  // The Arabic beside the English, optional (docs/domain.md "Event content in two languages"): empty is none.
  messageAr: text().trim().max(1000).optional(),
});
