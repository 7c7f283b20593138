import { z } from "zod";
import { rowId } from "../ids.ts";
import { nameField } from "../names/names.ts";

/** The team form: `id` present means edit (edit fills the form including the id). */
export const TeamFormSchema = z.object({
  id: rowId().optional(),
  name: nameField(100),
});

/** A team's name outside the form (API, bulk import). */
export const TeamNameSchema = TeamFormSchema.omit({ id: true });

export const TeamDeleteSchema = z.object({ id: rowId() });
