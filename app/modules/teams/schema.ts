import { z } from "zod";
import { divisionField } from "../divisions/schema.ts";
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
