import { z } from "zod";
import { rowId } from "../ids.ts";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";

const m = messages.apiTokens;

/** The dashboard's "new token" form: whose role the token carries, and a name to recognise it by. */
export const ApiTokenCreateSchema = z.object({
  userId: rowId(m.userRequired),
  name: text({ error: m.nameRequired }).trim().min(1, m.nameRequired).max(100, messages.dashboard.tooLong),
});

export const ApiTokenRevokeSchema = z.object({ id: rowId() });
