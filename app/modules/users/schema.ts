import { z } from "zod";
import { belongsToTeam, roles, type Role } from "../auth/access.ts";
import { rowId } from "../ids.ts";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";
import { nameField } from "../names/names.ts";
import { languageField, optionalEmailField } from "../mail/addresses.ts";

const m = messages.dashboard;

export const userRoles = roles;
/** The labels the original platform used (Admin, participant), plus Judge and Mentor. */
export const roleLabels: Record<(typeof userRoles)[number], string> = { admin: "Admin", judge: "Judge", participant: "participant", mentor: "Mentor" };

export const userFields = {
  name: nameField(60),
  password: text().max(200, m.tooLong).optional(),
  role: z.enum(userRoles, { error: m.roleRequired }),
  teamId: rowId().optional(),
  // Optional: with it (and mail on), a new user without a password is mailed a link to choose one.
  email: optionalEmailField(),
  language: languageField,
};

/**
 * A new user needs a password or an address to mail a set-password link to (an edit keeps the current one;
 * an import generates one); a team for participants only (`belongsToTeam`: the other roles have none).
 * `teamField` names where the team is.
 */
export function userRules({ passwordRequired, teamField = "teamId" }: { passwordRequired: boolean; teamField?: string }) {
  return (value: { password?: string; role: Role } & Record<string, unknown>, ctx: z.RefinementCtx) => {
    if (passwordRequired && !value.password && !value.email) ctx.addIssue({ code: "custom", path: ["password"], message: messages.mail.passwordOrAddress });
    if (value.password && value.password.length < 8) ctx.addIssue({ code: "custom", path: ["password"], message: m.passwordTooShort });
    if (belongsToTeam(value.role) && !value[teamField]) ctx.addIssue({ code: "custom", path: [teamField], message: m.teamRequired });
  };
}

/** The user form. `id` present means edit: a blank password then keeps the current one. */
export const UserFormSchema = z
  // The box "the address is this person's": an address typed at /register is confirmed only by an admin who ticks
  // it (or by its person using a link mailed to it); docs/domain.md "Sign-in with the organisers' identity provider".
  .object({ id: rowId().optional(), ...userFields, emailConfirmed: z.literal("on").optional().transform(Boolean) })
  .superRefine((value, ctx) => userRules({ passwordRequired: !value.id })(value, ctx));

/** The same rules without the form's id (the API's POST and PATCH). */
export const UserCreateSchema = z.object(userFields).superRefine(userRules({ passwordRequired: true }));
export const UserEditSchema = z.object({ ...userFields, email: userFields.email.nullable() }).superRefine(userRules({ passwordRequired: false }));

export type UserFormValues = z.infer<typeof UserFormSchema>;

export const UserDeleteSchema = z.object({ id: rowId() });

/** Ending a user's sessions from the Users page: all of them, or one (sessionId). */
export const EndSessionsSchema = z.object({ id: rowId(), sessionId: rowId().optional() });
