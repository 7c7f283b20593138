import { z } from "zod";
import { divisionField } from "../divisions/schema.ts";
import { text } from "../form-fields.ts";
import { rowId } from "../ids.ts";
import { messages } from "../messages.ts";
import { nameField } from "../names/names.ts";

/**
 * The team form: `id` present means edit (edit fills the form including the id). The division is one of the
 * event's list (the teams module checks it against the list); empty: none.
 */
export const TeamFormSchema = z.object({
  id: rowId().optional(),
  name: nameField(100),
  division: divisionField,
});

/** A team's name outside the form (the API's rename, the bulk import). */
export const TeamNameSchema = TeamFormSchema.pick({ name: true });

/** A new team through the API: its name, and its division if any. */
export const TeamCreateSchema = TeamFormSchema.omit({ id: true });

/** PUT /teams/{id}/division: the division to put the team in (DELETE takes it out of any). */
export const TeamDivisionSchema = z.object({
  division: z.string({ error: messages.divisions.required }).min(1, messages.divisions.required).pipe(divisionField.unwrap()),
});

export const TeamDeleteSchema = z.object({ id: rowId() });

/** The team page's forms (docs/domain.md "Teams that form themselves"), by intent. */
export const OwnTeamCreateSchema = z.object({ intent: z.literal("create"), name: nameField(100) });
export const JoinTeamSchema = z.object({
  intent: z.literal("join"),
  code: text({ error: messages.selfTeams.codeRequired }).trim().min(1, messages.selfTeams.codeRequired).max(64, messages.selfTeams.inviteUnknown),
});
export const RemoveMemberSchema = z.object({ intent: z.literal("remove"), userId: rowId() });
export const RevokeInviteSchema = z.object({ intent: z.literal("revoke"), inviteId: rowId() });

/** Settings → Teams: team formation (two checkboxes: absent is off). */
export const TeamFormationSchema = z.object({
  intent: z.literal("team-formation"),
  selfFormedTeams: z.literal("on").optional().transform(Boolean),
  teamsLocked: z.literal("on").optional().transform(Boolean),
});
