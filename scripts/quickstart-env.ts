/**
 * The environment `npm run quickstart` serves the demo in: production mode (what an event runs: no
 * stack trace reaches a browser, the strict CSP, the __Host- cookie) with the project-local services.
 * Prints `export NAME='value'` lines for the shell to eval.
 *
 * Mail: through the project's own SMTP server, which keeps it (Dashboard → Mailbox shows it), the links in
 * it opening this demo.
 *
 * SESSION_SECRET: the one in the environment if it is long enough, else one generated on the first
 * run and kept in .local/session-secret (mode 600, never committed), so sessions survive a restart.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { localPorts } from "../app/infrastructure/local-services.ts";
import { LOCAL_DIR, localMailEnv, productionServiceEnv } from "./lib/local-services.ts";

const SECRET_FILE = path.join(LOCAL_DIR, "session-secret");

function sessionSecret(): string {
  const given = process.env.SESSION_SECRET ?? "";
  if (given.length >= 32) return given;
  if (existsSync(SECRET_FILE)) {
    const kept = readFileSync(SECRET_FILE, "utf8").trim();
    if (kept.length >= 32) return kept;
  }
  mkdirSync(LOCAL_DIR, { recursive: true });
  const made = randomBytes(32).toString("hex");
  writeFileSync(SECRET_FILE, `${made}\n`, { mode: 0o600 });
  return made;
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
// Mail goes to the project's own SMTP server (unless SMTP_HOST names another); its links open this demo.
const origin = `http://localhost:${process.env.PORT ?? localPorts().web}`;
const env: Record<string, string> = { NODE_ENV: "production", SESSION_SECRET: sessionSecret(), ...productionServiceEnv(), ...localMailEnv(origin) };
for (const [name, value] of Object.entries(env)) console.log(`export ${name}=${quote(value)}`);
