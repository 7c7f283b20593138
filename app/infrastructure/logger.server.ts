import { pino } from "pino";
import { getEnv } from "./env.server.ts";

const globalForLogger = globalThis as typeof globalThis & { __gatekeeperLogger?: pino.Logger };

/** Fields of a database error that carry the query's values: names, emails, password hashes. */
const VALUE_FIELDS = ["params", "parameters", "args"];

/**
 * A failed query's error repeats its parameters (drizzle in its message, postgres.js in its fields): a
 * user's email, a password hash. Logs keep the query and the reason, never the values.
 */
function errorWithoutValues(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  const scrub = (value: Record<string, unknown>): Record<string, unknown> => {
    const copy: Record<string, unknown> = { ...value };
    for (const field of VALUE_FIELDS) delete copy[field];
    for (const field of ["message", "stack"]) {
      if (typeof copy[field] === "string") copy[field] = (copy[field] as string).replace(/\nparams: .*/g, "\nparams: [redacted]");
    }
    if (copy.cause && typeof copy.cause === "object") copy.cause = scrub(copy.cause as Record<string, unknown>);
    return copy;
  };
  return serialized && typeof serialized === "object" ? scrub(serialized) : serialized;
}

/** How our logs write what they are given (also what the test of the redaction uses). */
export const logSerializers = { err: errorWithoutValues };

/** Structured JSON logs. Passwords, cookies and query values are redacted wherever they appear. */
export function getLogger(): pino.Logger {
  globalForLogger.__gatekeeperLogger ??= pino({
    level: getEnv().LOG_LEVEL,
    serializers: logSerializers,
    redact: {
      paths: ["password", "*.password", "req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
      censor: "[redacted]",
    },
  });
  return globalForLogger.__gatekeeperLogger;
}
