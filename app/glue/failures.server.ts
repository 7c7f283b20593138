/**
 * An action's failure as a screen shows it, in one place (the API has its own, `toApiError` in
 * ./api.server.ts):
 * - a refusal a rule made (a DomainError, app/modules/errors.ts): its own message and status;
 * - a backing service that cannot be reached: 503, "try again in a moment", with Retry-After;
 * - anything else is a fault: logged with the route's context, and answered with the screen's generic
 *   text and a 500. Never rethrown to the error page: a form keeps what was typed.
 * A thrown Response (a guard's redirect or 403) is not a failure: it goes on its way.
 *
 * The dashboard's words (`dashboardFormFailure`, `dashboardToastFailure`): a refusal after the warning
 * sign, anything else the original platform's "unexpected error" text.
 */
import type { SubmissionResult } from "@conform-to/react";
import { isDomainError, type DomainError } from "../modules/errors.ts";
import { messages } from "../modules/messages.ts";
import { getLogger } from "../infrastructure/logger.server.ts";
import { redirectWithToast } from "./toast.server.ts";
import { isServiceUnreachable } from "./unavailable.server.ts";

export interface Failure {
  message: string;
  status: number;
  headers?: Record<string, string>;
  /** The refusal, when a rule made one. */
  refusal?: DomainError;
}

export interface FailureWords {
  /** Where it happened, for the log (only faults are logged). */
  log: string;
  /** What the user reads for a fault. */
  fallback: string;
  /** How a refusal's message is put (the dashboard prefixes a warning sign). */
  say?: (message: string) => string;
}

export function failureOf(error: unknown, words: FailureWords): Failure {
  if (error instanceof Response) throw error;
  if (isDomainError(error)) {
    const headers = error.retryAfterSeconds ? { "Retry-After": String(error.retryAfterSeconds) } : undefined;
    return { message: (words.say ?? String)(error.message), status: error.status, refusal: error, ...(headers ? { headers } : {}) };
  }
  if (isServiceUnreachable(error)) {
    getLogger().warn({ err: error }, `${words.log}: a backing service is unreachable, answered 503`);
    return { message: messages.errors.unavailable, status: 503, headers: { "Retry-After": "5" } };
  }
  getLogger().error({ err: error }, words.log);
  return { message: words.fallback, status: 500 };
}

interface Replying {
  reply(options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }): SubmissionResult<string[]>;
}

export interface FormFailureOptions extends FailureWords {
  /** The input the message goes on, given the refusal (undefined for a fault); default: above the form. */
  fieldOf?: (refusal: DomainError | undefined) => string | undefined;
  /** Inputs never sent back (a password). */
  hideFields?: string[];
}

/** The form's reply for a failure, everything typed kept, and the status to answer with. */
export function formFailure(submission: Replying, error: unknown, options: FormFailureOptions): { result: SubmissionResult<string[]>; init: ResponseInit } {
  const failure = failureOf(error, options);
  const field = options.fieldOf?.(failure.refusal);
  const result = submission.reply({
    ...(field ? { fieldErrors: { [field]: [failure.message] } } : { formErrors: [failure.message] }),
    ...(options.hideFields ? { hideFields: options.hideFields } : {}),
  });
  return { result, init: { status: failure.status, headers: failure.headers } };
}

/** Back to `url` with the failure as an error toast (row buttons: delete, toggle, revoke). */
export async function toastFailure(url: string, error: unknown, words: FailureWords): Promise<Response> {
  const failure = failureOf(error, words);
  return redirectWithToast(url, { type: "error", title: failure.message });
}

const dashboardWords = { say: messages.dashboard.warn, fallback: messages.dashboard.unexpected };

export function dashboardFormFailure(
  submission: Replying,
  error: unknown,
  options: { log: string; fallback?: string } & Pick<FormFailureOptions, "fieldOf" | "hideFields">,
) {
  return formFailure(submission, error, { ...dashboardWords, ...options, fallback: options.fallback ?? dashboardWords.fallback });
}

export function dashboardFailureOf(error: unknown, log: string, fallback: string = dashboardWords.fallback): Failure {
  return failureOf(error, { ...dashboardWords, log, fallback });
}

export function dashboardToastFailure(url: string, error: unknown, log: string) {
  return toastFailure(url, error, { ...dashboardWords, log });
}
