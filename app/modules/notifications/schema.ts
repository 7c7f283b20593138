import { z } from "zod";
import { text } from "../form-fields.ts";

// Spec 5 shows no validation; an empty message would be a blank popup, so it must have text.
export const NotificationSchema = z.object({
  message: text({ error: "Please write a message" }).trim().min(1, "Please write a message").max(1000),
});
