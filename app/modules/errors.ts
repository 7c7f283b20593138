/**
 * The one base of every refusal a rule makes: a message in the user's words, the HTTP status it maps
 * to, and, when one input is to blame, that input's name. The screens (app/glue/dashboard-errors.server.ts)
 * and the API (app/glue/api.server.ts) each map a DomainError one way, in one place; anything else thrown
 * is a fault: logged, and answered with a generic message and a 500.
 */
export class DomainError extends Error {
  readonly status: number;
  /** The form input (and API field) the message belongs to, if one. */
  readonly field?: string;
  /** For a 429: the seconds before trying again (sent as Retry-After by the API and the pages). */
  readonly retryAfterSeconds?: number;

  constructor(message: string, options: { status?: number; field?: string; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = new.target.name;
    this.status = options.status ?? 400;
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
