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

  constructor(message: string, options: { status?: number; field?: string } = {}) {
    super(message);
    this.name = new.target.name;
    this.status = options.status ?? 400;
    this.field = options.field;
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
