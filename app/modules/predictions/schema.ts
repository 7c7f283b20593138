/** The team's choice of the file that counts (docs/domain.md "Prediction challenges"): the page's form and the API's body. */
import { z } from "zod";
import { rowId } from "../ids.ts";
import { messages } from "../messages.ts";

const m = messages.predictions;

/** One of the team's files by its id (a row's id: app/modules/ids.ts), or "latest" for its latest scored one. */
export const ChoiceSchema = z.object({
  submission: z.union([z.literal("latest"), rowId(m.choiceInvalid)], { error: m.choiceInvalid }).meta({ description: "A file's id, or \"latest\"" }),
});
