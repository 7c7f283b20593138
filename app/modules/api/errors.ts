/**
 * The API's one catalogue of error kinds (after rCTF's): each code has one HTTP status, and
 * every error body has the same shape, `{ code, message, fieldErrors? }`, so a script can switch on
 * `code` and show `message` (texts from messages.ts).
 */
import { z } from "zod";
import { DomainError } from "../errors.ts";

export const apiErrorStatus = {
  bad_request: 400,
  validation_failed: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  forbidden: 403,
  forbidden_origin: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  throttled: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ApiErrorCode = keyof typeof apiErrorStatus;
export type FieldErrors = Record<string, string[]>;

export const ApiErrorSchema = z
  .object({
    code: z.enum(Object.keys(apiErrorStatus) as [ApiErrorCode, ...ApiErrorCode[]]),
    message: z.string(),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional().meta({ description: "Messages per input field (validation_failed, conflict)" }),
  })
  .meta({ id: "Error" });

export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;

/** The API's answer to a failure: a DomainError whose code names its status (the table above). */
export class ApiError extends DomainError {
  constructor(
    public readonly code: ApiErrorCode,
    message: string,
    public readonly fieldErrors?: FieldErrors,
    /** e.g. Retry-After on 429, Allow on 405. */
    public readonly headers?: Record<string, string>,
  ) {
    super(message, { status: apiErrorStatus[code] });
  }

  get body(): ApiErrorBody {
    return { code: this.code, message: this.message, ...(this.fieldErrors ? { fieldErrors: this.fieldErrors } : {}) };
  }
}

/** The code for a status a module chose (DashboardError, SubmissionError, ScoringError carry one). */
export function codeForStatus(status: number): ApiErrorCode {
  const code = (Object.keys(apiErrorStatus) as ApiErrorCode[]).find((candidate) => apiErrorStatus[candidate] === status);
  return code ?? (status >= 500 ? "internal" : "bad_request");
}

/** zod issues as the API's field errors: the first message becomes the error's message. */
export function validationError(error: z.ZodError, fallback: string): ApiError {
  const { formErrors, fieldErrors } = z.flattenError(error) as { formErrors: string[]; fieldErrors: Record<string, string[] | undefined> };
  const fields = Object.fromEntries(Object.entries(fieldErrors).filter((entry): entry is [string, string[]] => Boolean(entry[1]?.length)));
  const message = formErrors[0] ?? Object.values(fields)[0]?.[0] ?? fallback;
  return new ApiError("validation_failed", message, Object.keys(fields).length ? fields : undefined);
}
