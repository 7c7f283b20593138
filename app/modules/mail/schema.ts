/**
 * The forms about a password (docs/domain.md "Mail"), shared by the browser's validation and the actions:
 * the forgotten-password form (an address), a link's form (the token and a new password twice) and the
 * signed-in user's form (the current password, then a new one twice). A new password: 8 to 200 characters,
 * as the Users page asks.
 */
import { z } from "zod";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";
import { emailField } from "./addresses.ts";

export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 200;

const newPassword = text({ error: messages.dashboard.passwordRequired })
  .min(1, messages.dashboard.passwordRequired)
  .min(MIN_PASSWORD, messages.dashboard.passwordTooShort)
  .max(MAX_PASSWORD, messages.validation.tooLong(MAX_PASSWORD));

const twice = <T extends { password: string; confirm?: string }>(value: T, ctx: z.RefinementCtx) => {
  if (value.password !== value.confirm) ctx.addIssue({ code: "custom", path: ["confirm"], message: messages.mail.passwordsDiffer });
};

export const ForgotPasswordSchema = z.object({ email: emailField() });

export const SetPasswordSchema = z
  .object({ token: text().max(200).optional(), password: newPassword, confirm: text().max(MAX_PASSWORD).optional() })
  .superRefine(twice);

/** A participant's link while passwords are off: the token alone, to confirm the address it was mailed to. */
export const ConfirmAddressSchema = z.object({ token: text().max(200).optional(), intent: z.literal("confirm") });

export const ChangePasswordSchema = z
  .object({
    current: text({ error: messages.login.emptyFields }).min(1, messages.dashboard.passwordRequired).max(1000),
    password: newPassword,
    confirm: text().max(MAX_PASSWORD).optional(),
  })
  .superRefine(twice);
