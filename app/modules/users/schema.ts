import { z } from "zod";
import { messages } from "../messages.ts";

const m = messages.dashboard;

export const userRoles = ["admin", "judge", "participant"] as const;
/** The labels the spec uses (Admin, participant), plus Judge. */
export const roleLabels: Record<(typeof userRoles)[number], string> = { admin: "Admin", judge: "Judge", participant: "participant" };

const userFields = {
  name: z.string({ error: m.nameRequired }).trim().min(1, m.nameRequired).max(60, m.tooLong),
  password: z.string().max(200, m.tooLong).optional(),
  role: z.enum(userRoles, { error: m.roleRequired }),
  teamId: z.coerce.number().int().positive().optional(),
};

/** A password is needed for a new user only; a team for participants only (admins and judges have none). */
function userRules(editing: boolean) {
  return (value: { password?: string; role: string; teamId?: number }, ctx: z.RefinementCtx) => {
    if (!editing && !value.password) ctx.addIssue({ code: "custom", path: ["password"], message: m.passwordRequired });
    if (value.password && value.password.length < 8) ctx.addIssue({ code: "custom", path: ["password"], message: m.passwordTooShort });
    if (value.role === "participant" && !value.teamId) ctx.addIssue({ code: "custom", path: ["teamId"], message: m.teamRequired });
  };
}

/** The user form. `id` present means edit: a blank password then keeps the current one. */
export const UserFormSchema = z
  .object({ id: z.coerce.number().int().positive().optional(), ...userFields })
  .superRefine((value, ctx) => userRules(Boolean(value.id))(value, ctx));

/** The same rules without the form's id (the API's POST and PATCH, the bulk import). */
export const UserCreateSchema = z.object(userFields).superRefine(userRules(false));
export const UserEditSchema = z.object(userFields).superRefine(userRules(true));

export type UserFormValues = z.infer<typeof UserFormSchema>;

export const UserDeleteSchema = z.object({ id: z.coerce.number().int().positive() });
