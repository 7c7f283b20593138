import { z } from "zod";
import "../form-errors.ts";

// Spec 5 shows no validation; an empty message would be a blank popup, so it must have text.
export const NotificationSchema = z.object({
  message: z.string({ error: "Please write a message" }).trim().min(1, "Please write a message").max(1000),
});
