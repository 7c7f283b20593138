import { z } from "zod";
import { belongsToTeam } from "../auth/access.ts";
import "../form-fields.ts";
import { divisionField } from "../divisions/schema.ts";
import { TeamNameSchema } from "../teams/schema.ts";
import { userFields, userRoles, userRules } from "../users/schema.ts";
import { messages } from "../messages.ts";

/** A file is read whole (it is small); 500 rows keep the argon2 hashing of an account import to seconds. */
export const MAX_IMPORT_ROWS = 500;
export const MAX_IMPORT_FILE_BYTES = 2_000_000;

export const importKinds = ["accounts", "challenges"] as const;
export type ImportKind = (typeof importKinds)[number];

export const ACCOUNT_COLUMNS = { required: ["name", "role"], optional: ["team", "password", "division", "email", "language"] } as const;
/**
 * A challenge file's columns. `checking` is "judges" (empty) or "flag"; `answers` is the dashboard form's text,
 * one answer a line (a quoted CSV cell may hold line breaks; in a JSON file a string with "\n" or a list of
 * lines); `wrong_per_minute` and `max_attempts` are a flag challenge's limits (empty: the event's, none);
 * `scoring` is "static" (empty) or "dynamic", with `minimum_points` and `decay` (the solves at which the value
 * reaches the minimum); `release_after_minutes` opens it after its gate; `paid_hints` are its hints that cost
 * points, `cost | text` a line (in JSON also a list of `{ cost, text }`); `prerequisites` the titles of the
 * challenges it requires, one a line: saved ones or other rows of the file. `title_ar` and `description_ar` the
 * Arabic beside the English (empty: none; docs/domain.md "Event content in two languages").
 */
export const CHALLENGE_COLUMNS = {
  required: ["title", "description", "points", "category"],
  optional: [
    "title_ar",
    "description_ar",
    "difficulty",
    "hints",
    "wave",
    "checking",
    "answers",
    "wrong_per_minute",
    "max_attempts",
    "scoring",
    "minimum_points",
    "decay",
    "release_after_minutes",
    "paid_hints",
    "prerequisites",
  ],
} as const;

/**
 * One row of a teams-and-users file: the user form's rules, with the team given by name (an existing
 * team, any case, or a new one) and the password optional (a link is mailed to the row's address where mail
 * is on, else one is generated). Roles may be written
 * as the screens label them ("Admin", "participant"). A participant's row may name the team's division.
 */
export const AccountRowSchema = z
  .object({
    name: userFields.name,
    role: z.preprocess(
      (value) => (typeof value === "string" ? value.toLowerCase() : value),
      // The form's "Role is required" when the cell is empty; a word the form never offers gets its own message.
      z.enum(userRoles, { error: (issue) => (issue.input === undefined ? messages.dashboard.roleRequired : messages.imports.roleInvalid) }),
    ),
    password: userFields.password,
    team: TeamNameSchema.shape.name.optional(),
    // The team's division (one of the event's list, checked against it by the import); empty: the team's stays.
    division: divisionField,
    // The user's address and their mail's language (en or ar; empty: en). With an address and no password,
    // where mail is on, the user is mailed a link to choose one (docs/domain.md "Mail").
    email: userFields.email,
    language: z.preprocess((value) => (typeof value === "string" ? value.toLowerCase() : value), userFields.language),
  })
  .superRefine(userRules({ passwordRequired: false, teamField: "team" }))
  .superRefine((value, ctx) => {
    if (!belongsToTeam(value.role) && value.team) ctx.addIssue({ code: "custom", path: ["team"], message: messages.imports.staffTeam });
    if (!belongsToTeam(value.role) && value.division) ctx.addIssue({ code: "custom", path: ["division"], message: messages.divisions.staff });
  });

export type AccountRowValues = z.infer<typeof AccountRowSchema>;

/** The import page's two steps: preview (a file) and import (the same content, checked again). */
export const ImportFormSchema = z.object({
  intent: z.enum(["preview", "import"]),
  kind: z.enum(importKinds),
});
