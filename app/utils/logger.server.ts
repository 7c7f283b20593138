import { pino } from "pino";
import { getEnv } from "./env.server.ts";

const globalForLogger = globalThis as typeof globalThis & { __gatekeeperLogger?: pino.Logger };

/** Structured JSON logs. Passwords and cookies are redacted wherever they appear. */
export function getLogger(): pino.Logger {
  globalForLogger.__gatekeeperLogger ??= pino({
    level: getEnv().LOG_LEVEL,
    redact: {
      paths: ["password", "*.password", "req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
      censor: "[redacted]",
    },
  });
  return globalForLogger.__gatekeeperLogger;
}
