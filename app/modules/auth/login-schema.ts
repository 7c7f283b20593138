import { z } from "zod";
import { text } from "../form-fields.ts";
import { messages } from "../messages.ts";

/** The login form, shared by the action and the browser-side validation. */
export const LoginSchema = z.object({
  username: text({ error: messages.login.emptyFields }).trim().min(1, messages.login.emptyFields).max(200),
  password: text({ error: messages.login.emptyFields }).min(1, messages.login.emptyFields).max(1000),
  redirectTo: text().max(2048).optional(),
});

/** The API's login body: the form's fields, without the page's redirect. */
export const ApiLoginSchema = LoginSchema.omit({ redirectTo: true });
