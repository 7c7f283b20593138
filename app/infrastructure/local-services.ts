/**
 * The project-local services' addresses, defined once (docs/decisions/002-local-services.md): the app's
 * configuration falls back to them (env.server.ts) and the scripts start them there (scripts/lib/local-services.ts),
 * so a migrate, a seed, a test run and the web process always talk to the same instances.
 *
 * Ports are deliberately non-standard so the local instances never collide with a system Postgres (5432),
 * Redis (6379) or another project's s3rver (4568). GATEKEEPER_PORT_OFFSET (a whole number from 0 to 99,
 * default 0) moves every one of them by the same amount, with the web port and a worker's metrics port: a
 * second checkout on the same machine sets it (say to 1) and runs its own quickstart beside the first.
 * The SMTP server (52525) is the project's own, a catcher that keeps what it receives (scripts/smtp-server.ts).
 * Each range is 100 ports wide, so no offset moves one service onto another's port.
 */
export const LOCAL_HOST = "127.0.0.1";
export const PORT_OFFSET_VARIABLE = "GATEKEEPER_PORT_OFFSET";
export const MAX_PORT_OFFSET = 99;

const BASE_PORTS = { postgres: 55432, redis: 56379, s3: 54569, smtp: 52525, web: 3000, workerMetrics: 9464 } as const;

export type LocalPorts = { [name in keyof typeof BASE_PORTS]: number };

export const DEFAULT_DATABASE_NAME = "gatekeeper";
export const DEFAULT_S3_BUCKET = "gatekeeper";
export const DEFAULT_S3_REGION = "us-east-1";
/**
 * The project's own SMTP server (scripts/smtp-server.ts) keeps every mail it receives as a JSON file here,
 * relative to the checkout (each checkout's `.local/`); Dashboard → Mailbox lists them (SMTP_MAILBOX_DIR).
 */
export const LOCAL_MAILBOX_PATH = ".local/smtp/mailbox";
/** The sender of the local mail: a name of our own that no one's mail provider answers for. */
export const LOCAL_MAIL_FROM = "Gatekeeper <gatekeeper@localhost>";

/** s3rver's built-in credentials; it rejects requests signed with anything else. */
export const DEFAULT_S3_ACCESS_KEY_ID = "S3RVER";
export const DEFAULT_S3_SECRET_ACCESS_KEY = "S3RVER";

type Source = Record<string, string | undefined>;

/** The offset GATEKEEPER_PORT_OFFSET asks for: 0 when unset or empty, null when it is not 0–99. */
export function portOffsetOf(source: Source): number | null {
  const text = source[PORT_OFFSET_VARIABLE]?.trim() ?? "";
  if (text === "") return 0;
  if (!/^\d{1,2}$/.test(text)) return null;
  return Number(text);
}

/** Every local port, moved by the offset; throws on an offset that is not 0–99. */
export function localPorts(source: Source = process.env): LocalPorts {
  const offset = portOffsetOf(source);
  if (offset === null) throw new Error(`${PORT_OFFSET_VARIABLE} must be a whole number from 0 to ${MAX_PORT_OFFSET}`);
  return {
    postgres: BASE_PORTS.postgres + offset,
    redis: BASE_PORTS.redis + offset,
    s3: BASE_PORTS.s3 + offset,
    smtp: BASE_PORTS.smtp + offset,
    web: BASE_PORTS.web + offset,
    workerMetrics: BASE_PORTS.workerMetrics + offset,
  };
}

/** The URLs of the project-local services for this offset. */
export function localServiceUrls(source: Source = process.env) {
  const ports = localPorts(source);
  return {
    databaseUrl: `postgres://postgres@${LOCAL_HOST}:${ports.postgres}/${DEFAULT_DATABASE_NAME}`,
    redisUrl: `redis://${LOCAL_HOST}:${ports.redis}`,
    s3Endpoint: `http://${LOCAL_HOST}:${ports.s3}`,
    smtpHost: LOCAL_HOST,
    smtpPort: ports.smtp,
  };
}
