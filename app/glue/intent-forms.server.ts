/**
 * A page of several forms, each named by its `intent` (the dashboard's settings): one form's post is
 * parsed with conform against its schema, saved by a module function, and answered: back to the page with
 * the module's toast, or the form's reply (what was typed kept) with the refusal on its input and a 400.
 */
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import type { z } from "zod";
import type { Actor } from "../modules/audit/audit.server.ts";
import type { DomainError } from "../modules/errors.ts";
import type { SettingsOutcome as SaveOutcome } from "../modules/settings/event-settings.server.ts";
import { dashboardFormFailure } from "./failures.server.ts";
import { redirectWithToast } from "./toast.server.ts";

/** The action's answer for one form (several forms share the page's action); `number` tells gates apart. */
export interface IntentFormResult {
  intent: string;
  number?: number;
  result: SubmissionResult<string[]>;
}

/** A failure the save throws, answered on the form (dashboardFormFailure); without, it goes to the error page. */
export interface IntentFormFailure {
  log: string;
  fieldOf?: (refusal: DomainError | undefined) => string | undefined;
}

export type IntentForm = (actor: Actor, formData: FormData, pageUrl: string) => Promise<Response | ReturnType<typeof data<IntentFormResult>>>;

/**
 * The form `schema` checks, saved by `save`. `numbered`: forms of this intent stand several on the page
 * (the gates), each naming its `number`, which the answer carries back, even for a refused post.
 */
export function intentForm<Schema extends z.ZodType>(
  schema: Schema,
  save: (actor: Actor, value: z.output<Schema>) => Promise<SaveOutcome>,
  options: { failure?: IntentFormFailure; numbered?: boolean } = {},
): IntentForm {
  const { failure, numbered } = options;
  return async (actor, formData, pageUrl) => {
    const intent = String(formData.get("intent") ?? "");
    const reply = (result: SubmissionResult<string[]>, init: ResponseInit = { status: 400 }) =>
      data<IntentFormResult>({ intent, ...(numbered ? { number: Number(formData.get("number")) } : {}), result }, init);
    const submission = parseWithZod(formData, { schema });
    if (submission.status !== "success") return reply(submission.reply());
    let outcome: SaveOutcome;
    try {
      outcome = await save(actor, submission.value as z.output<Schema>);
    } catch (error) {
      if (!failure) throw error;
      const failed = dashboardFormFailure(submission, error, failure);
      return reply(failed.result, failed.init);
    }
    if ("refused" in outcome) return reply(submission.reply({ fieldErrors: { [outcome.refused.field]: [outcome.refused.message] } }));
    return redirectWithToast(pageUrl, { type: "success", title: outcome.saved });
  };
}
