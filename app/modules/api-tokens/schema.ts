import { z } from "zod";
import { MAX_ROW_ID, rowId } from "../ids.ts";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";

const m = messages.apiTokens;

/** The dashboard's "new token" form: whose role the token carries, and a name to recognise it by. */
export const ApiTokenCreateSchema = z.object({
  userId: z.coerce.number({ error: m.userRequired }).int(m.userRequired).min(1, m.userRequired).max(MAX_ROW_ID, m.userRequired),
  name: text({ error: m.nameRequired }).trim().min(1, m.nameRequired).max(100, messages.dashboard.tooLong),
});

export const ApiTokenRevokeSchema = z.object({ id: rowId() });
