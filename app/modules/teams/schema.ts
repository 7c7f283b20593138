import { z } from "zod";
import { rowId } from "../ids.ts";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";

const m = messages.dashboard;

/** The team form: `id` present means edit (spec 4: edit fills the form including the id). */
export const TeamFormSchema = z.object({
  id: rowId().optional(),
  name: text({ error: m.nameRequired }).trim().min(1, m.nameRequired).max(100, m.tooLong),
});

/** A team's name outside the form (API, bulk import). */
export const TeamNameSchema = TeamFormSchema.omit({ id: true });

export const TeamDeleteSchema = z.object({ id: rowId() });
