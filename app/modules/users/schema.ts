import { z } from "zod";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";

const m = messages.dashboard;

export const userRoles = ["admin", "judge", "participant"] as const;
/** The labels the spec uses (Admin, participant), plus Judge. */
export const roleLabels: Record<(typeof userRoles)[number], string> = { admin: "Admin", judge: "Judge", participant: "participant" };

/**
 * The user form. `id` present means edit: a blank password then keeps the current one.
 * A team is required for participants only; admins and judges have none.
 */
export const UserFormSchema = z
  .object({
    id: z.coerce.number().int().positive().optional(),
    name: text({ error: m.nameRequired }).trim().min(1, m.nameRequired).max(60, m.tooLong),
    password: text().max(200, m.tooLong).optional(),
    role: z.enum(userRoles, { error: m.roleRequired }),
    teamId: z.coerce.number().int().positive().optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.id && !value.password) ctx.addIssue({ code: "custom", path: ["password"], message: m.passwordRequired });
    if (value.password && value.password.length < 8) ctx.addIssue({ code: "custom", path: ["password"], message: m.passwordTooShort });
    if (value.role === "participant" && !value.teamId) ctx.addIssue({ code: "custom", path: ["teamId"], message: m.teamRequired });
  });

export type UserFormValues = z.infer<typeof UserFormSchema>;

export const UserDeleteSchema = z.object({ id: z.coerce.number().int().positive() });
