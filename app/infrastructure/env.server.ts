import { z } from "zod";
import path from "node:path";
import { DEFAULT_S3_ACCESS_KEY_ID, DEFAULT_S3_BUCKET, DEFAULT_S3_REGION, DEFAULT_S3_SECRET_ACCESS_KEY, LOCAL_MAIL_FROM, LOCAL_MAILBOX_PATH, localPorts, localServiceUrls, MAX_PORT_OFFSET, portOffsetOf } from "./local-services.ts";

/**
 * The process configuration, parsed once. Local defaults point at the project-local services that
 * `npm run services:start` runs (scripts/services.ts), on the ports local-services.ts defines (moved by
 * GATEKEEPER_PORT_OFFSET); production refuses the unsafe ones.
 */
export const DEV_SESSION_SECRET = "gatekeeper-dev-session-secret-change-me";

const booleanFromString = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1");

/**
 * What Express's "trust proxy" gets. Never `true`: Express would then take the leftmost X-Forwarded-For
 * entry, which the client writes, and anyone could choose the address their login attempts and audit
 * records are counted under. "true" means one proxy in front (ours: the address it saw is the last entry);
 * a number, that many proxies; otherwise the proxies' addresses or subnets ("loopback, 10.0.0.0/8").
 */
export function trustedProxies(value: string): false | number | string[] | undefined {
  const text = value.trim();
  if (text === "" || text === "false" || text === "0") return false;
  if (text === "true") return 1;
  if (/^[1-9]$/.test(text)) return Number(text);
  if (/^\d+$/.test(text)) return undefined;
  const list = text.split(",").map((entry) => entry.trim()).filter(Boolean);
  if (list.length === 0 || list.some((entry) => !/^[0-9a-fA-F:./]+$|^(loopback|linklocal|uniquelocal)$/.test(entry))) return undefined;
  return list;
}

/** SMTP_HOST's word for "this event sends no mail" (any environment). */
export const NO_SMTP = "none";
const SMTP_TLS_MODES = ["starttls", "implicit", "off"] as const;

/**
 * A sender as SMTP_FROM gives it: "Name <address>" or an address alone, on one line, no quotes or angle
 * brackets inside the name (nodemailer writes the header from it: nothing here may start another header).
 */
// eslint-disable-next-line no-control-regex -- control characters are what must not reach the From header
const SENDER = /^(?:[^<>"\r\n\u0000-\u001f\u007f]{1,100} <[^\s<>"@]{1,64}@[^\s<>"@]{1,190}>|[^\s<>"@]{1,64}@[^\s<>"@]{1,190})$/u;

/** How this process sends mail (docs/domain.md "Mail"); null: it sends none (and says why). */
export interface MailSettings {
  host: string;
  port: number;
  tls: (typeof SMTP_TLS_MODES)[number];
  user?: string;
  password?: string;
  from: string;
  /** The site's public origin, the links mailed point at (never a request's Host, which a client writes). */
  origin: string;
  /** The local SMTP server's kept mail, listed by Dashboard → Mailbox (null: not this machine's to read). */
  mailboxDir: string | null;
}

export type MailOff = { off: "not-configured" | "turned-off" };

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;

/** The schema, its local defaults those of the offset the environment asks for (local-services.ts). */
function envSchema(source: Record<string, string | undefined>) {
  const offset = portOffsetOf(source) === null ? {} : source;
  const ports = localPorts(offset);
  const local = localServiceUrls(offset);
  return z
    .object({
      // Checked here so a bad one is named with the others; its value is read by localPorts.
      GATEKEEPER_PORT_OFFSET: z.string().refine((text) => portOffsetOf({ GATEKEEPER_PORT_OFFSET: text }) !== null, `a whole number from 0 to ${MAX_PORT_OFFSET}`).optional(),
      NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
      PORT: z.coerce.number().int().min(0).max(65535).default(ports.web),
      APP_ORIGIN: z.url().optional(),
      // Behind reverse proxies: which X-Forwarded-For entries to believe for the client address (login
      // throttling, sessions, the audit trail). See `trustedProxies`.
      TRUST_PROXY: z
        .string()
        .default("false")
        .transform((value, ctx) => {
          const trusted = trustedProxies(value);
          if (trusted === undefined) ctx.addIssue({ code: "custom", message: "false, true, a number of proxies (1-9), or addresses/subnets separated by commas" });
          return trusted ?? false;
        }),
      LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
      DATABASE_URL: z
        .url()
        .refine((url) => /^postgres(ql)?:\/\//.test(url), "must start with postgres://")
        .default(local.databaseUrl),
      DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
      // Requests a web process serves at once; the rest wait in arrival order (decision 013). 0: no limit.
      WEB_MAX_ACTIVE_REQUESTS: z.coerce.number().int().min(0).max(10_000).default(8),
      // How long a form or JSON body may take to arrive (app/glue/request-bodies.server.ts).
      WEB_BODY_DEADLINE_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
      REDIS_URL: z
        .url()
        .refine((url) => /^rediss?:\/\//.test(url), "must start with redis://")
        .default(local.redisUrl),
      REDIS_PREFIX: z
        .string()
        .regex(/^[a-zA-Z0-9_-]+$/, "letters, digits, - and _ only")
        .default("gk"),
      S3_ENDPOINT: z.url().default(local.s3Endpoint),
      // Browsers download through presigned URLs: they must name a host the browser can reach.
      S3_PUBLIC_ENDPOINT: z.url().optional(),
      S3_REGION: z.string().min(1).default(DEFAULT_S3_REGION),
      S3_BUCKET: z.string().min(3).default(DEFAULT_S3_BUCKET),
      S3_ACCESS_KEY_ID: z.string().min(1).default(DEFAULT_S3_ACCESS_KEY_ID),
      S3_SECRET_ACCESS_KEY: z.string().min(1).default(DEFAULT_S3_SECRET_ACCESS_KEY),
      S3_FORCE_PATH_STYLE: booleanFromString.default(true),
      SESSION_SECRET: z.string().min(16).default(DEV_SESSION_SECRET),
      // A sign-in session ends after this long without a request, and this long after the login (decision 015).
      // At least 5 minutes: a use is written once a minute.
      SESSION_IDLE_MINUTES: z.coerce.number().int().min(5).max(525_600).default(720),
      SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(8_760).default(72),
      // What one player can hold (docs/RELIABILITY.md): live sign-in sessions per user (a new one ends the
      // oldest), Socket.IO connections per session and per user (counted per web process), and threads
      // waiting for an organiser per team and per user (a new one is refused).
      SESSIONS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(10),
      SOCKETS_PER_SESSION: z.coerce.number().int().min(1).max(100_000).default(10),
      SOCKETS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(20),
      THREADS_WAITING_PER_TEAM: z.coerce.number().int().min(1).max(100_000).default(20),
      THREADS_WAITING_PER_USER: z.coerce.number().int().min(1).max(100_000).default(10),
      // Failed sign-ins at one account from every address together (docs/RELIABILITY.md, "Web security"):
      // this many attempts are free, then each waits for the one before it: FIRST, doubling, at most MAX
      // seconds (never a lockout). An address the account signed in from successfully before (the last
      // LOGIN_KNOWN_ADDRESSES of them, for LOGIN_KNOWN_ADDRESS_DAYS; 0 remembers none), and a browser it signed
      // in from (a signed cookie kept LOGIN_KNOWN_ADDRESS_DAYS; none when 0 addresses are kept), do not wait.
      LOGIN_ACCOUNT_FREE_ATTEMPTS: z.coerce.number().int().min(1).max(1_000).default(5),
      LOGIN_ACCOUNT_FIRST_WAIT_SECONDS: z.coerce.number().int().min(1).max(3_600).default(5),
      LOGIN_ACCOUNT_MAX_WAIT_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
      LOGIN_KNOWN_ADDRESSES: z.coerce.number().int().min(0).max(100).default(10),
      LOGIN_KNOWN_ADDRESS_DAYS: z.coerce.number().int().min(1).max(365).default(30),
      WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
      // A code runner's programs at once (docs/operations.md "Code runners"); unset: the machine's cores less one.
      RUNNER_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
      // The first sandbox slot (gk-sandbox-N user) a runner takes: two runners on one machine take disjoint slots.
      RUNNER_FIRST_SLOT: z.coerce.number().int().min(0).max(63).default(0),
      // The runner's CPU priority, a nice level from 0 to 19 that its compilers and programs inherit: on cores shared
      // with web processes, judging waits for the pages, never the reverse (docs/operations.md "Code runners").
      RUNNER_NICE: z.coerce.number().int().min(0).max(19).default(10),
      // Shown as "processed by" on each job in the queue dashboard. Default: host and pid.
      WORKER_NAME: z.string().min(1).max(100).optional(),
      // Submission upload limit in bytes (200 MB). Lowered only by the e2e server to keep CI fast.
      SUBMISSION_MAX_BYTES: z.coerce.number().int().min(1).default(209_715_200),
      // Prometheus metrics (docs/operations.md): served only to a scraper that sends this bearer token;
      // unset, /metrics answers 404 and workers open no metrics port.
      METRICS_TOKEN: z.string().min(16, "must be at least 16 characters (e.g. openssl rand -hex 24)").optional(),
      // Tests only: the first-blood webhook may post to this machine (a local receiver); never in production
      // (app/modules/webhooks/addresses.server.ts refuses every private address otherwise).
      WEBHOOK_ALLOW_LOOPBACK: booleanFromString.default(false),
      // The port a worker serves its metrics on; several workers on one host take the next free ones.
      WORKER_METRICS_PORT: z.coerce.number().int().min(1).max(65535).default(ports.workerMetrics),
      // Outgoing mail (docs/domain.md "Mail"): the SMTP server, its TLS (starttls: the server must offer it;
      // implicit: TLS from the first byte, port 465; off: plain, only to this machine in production), its
      // credentials and the sender. Unset outside production: the project's own local SMTP server, which keeps
      // what it receives (scripts/smtp-server.ts). Unset in production, or "none" anywhere: no mail is sent, and
      // the flows that need it say so (one-time passwords instead of set-password links, no "forgot password").
      SMTP_HOST: z.string().min(1).max(253).regex(/^[A-Za-z0-9.:[\]-]+$/, "a host name or an address").optional(),
      SMTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
      SMTP_TLS: z.enum(SMTP_TLS_MODES).optional(),
      SMTP_USER: z.string().min(1).max(500).optional(),
      SMTP_PASSWORD: z.string().min(1).max(500).optional(),
      SMTP_FROM: z.string().regex(SENDER, 'an address, or "Name <address>" on one line').optional(),
      // Where the local SMTP server keeps what it receives: set, admins read it on Dashboard → Mailbox.
      SMTP_MAILBOX_DIR: z.string().min(1).optional(),
      // How long a set-password link (a new account's) stays usable; a reset link is 30 minutes.
      PASSWORD_LINK_HOURS: z.coerce.number().int().min(1).max(720).default(72),
      // Sign-in with the organisers' OpenID Connect provider (docs/domain.md "Sign-in with the organisers' identity
      // provider"): its issuer (discovered at <issuer>/.well-known/openid-configuration), this site's client id and
      // secret there, and the provider's name on the login page's button ("University account"). Unset
      // OIDC_ISSUER: no such sign-in, nothing shows. OIDC_CREATES_ACCOUNTS: a person the provider vouches for who
      // has no account here gets a participant account without a team (otherwise they are refused).
      OIDC_ISSUER: z.url().max(500).optional(),
      OIDC_CLIENT_ID: z.string().min(1).max(500).optional(),
      OIDC_CLIENT_SECRET: z.string().min(1).max(2_000).optional(),
      // eslint-disable-next-line no-control-regex -- a label is one line of plain text on a button
      OIDC_LABEL: z.string().trim().min(1).max(60).regex(/^[^\u0000-\u001f\u007f<>]+$/u, "one line of text, no angle brackets").optional(),
      OIDC_CREATES_ACCOUNTS: booleanFromString.default(false),
    })
    .superRefine((env, ctx) => {
      if (env.NODE_ENV !== "production") return;
      if (env.SESSION_SECRET === DEV_SESSION_SECRET || env.SESSION_SECRET.length < 32) {
        ctx.addIssue({
          code: "custom",
          path: ["SESSION_SECRET"],
          message: "production needs your own secret of at least 32 characters (e.g. openssl rand -hex 32)",
        });
      }
      if (env.WEBHOOK_ALLOW_LOOPBACK) {
        ctx.addIssue({ code: "custom", path: ["WEBHOOK_ALLOW_LOOPBACK"], message: "a test-only setting: production never posts a webhook to this machine" });
      }
      if (env.METRICS_TOKEN !== undefined && env.METRICS_TOKEN.length < 32) {
        ctx.addIssue({ code: "custom", path: ["METRICS_TOKEN"], message: "production needs a metrics token of at least 32 characters (e.g. openssl rand -hex 24)" });
      }
      if (env.SMTP_HOST !== undefined && env.SMTP_HOST !== NO_SMTP) {
        if (env.SMTP_FROM === undefined) ctx.addIssue({ code: "custom", path: ["SMTP_FROM"], message: "production needs the sender of its mail (e.g. Gatekeeper <noreply@your.domain>)" });
        if (env.APP_ORIGIN === undefined) ctx.addIssue({ code: "custom", path: ["APP_ORIGIN"], message: "the links mailed (set-password, reset) need the site's public origin, e.g. https://gates.example.org" });
        if (env.SMTP_TLS === "off" && !LOOPBACK_HOST.test(env.SMTP_HOST)) {
          ctx.addIssue({ code: "custom", path: ["SMTP_TLS"], message: "off sends the links in clear over the network: use starttls or implicit, or a relay on this machine" });
        }
      }
    })
    .superRefine((env, ctx) => {
      if (env.OIDC_ISSUER === undefined) return;
      for (const name of ["OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "OIDC_LABEL"] as const) {
        if (env[name] === undefined) ctx.addIssue({ code: "custom", path: [name], message: "OIDC_ISSUER needs OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_LABEL" });
      }
      if (env.NODE_ENV !== "production") return;
      // Plain HTTP only to a provider on this machine (as SMTP_TLS=off to a relay here): nothing crosses a network.
      // (A value that is no URL has its own issue above; zod runs this check on it too.)
      const issuerHost = URL.canParse(env.OIDC_ISSUER) ? new URL(env.OIDC_ISSUER).hostname : "";
      if (!env.OIDC_ISSUER.startsWith("https://") && !LOOPBACK_HOST.test(issuerHost)) {
        ctx.addIssue({ code: "custom", path: ["OIDC_ISSUER"], message: "production talks to its identity provider over HTTPS only (https://...), or over HTTP to one on this machine" });
      }
      if (env.APP_ORIGIN === undefined) ctx.addIssue({ code: "custom", path: ["APP_ORIGIN"], message: "the identity provider sends people back to the site's public origin, e.g. https://gates.example.org" });
    })
    .superRefine((env, ctx) => {
      if ((env.SMTP_USER === undefined) !== (env.SMTP_PASSWORD === undefined)) {
        ctx.addIssue({ code: "custom", path: [env.SMTP_USER === undefined ? "SMTP_USER" : "SMTP_PASSWORD"], message: "SMTP_USER and SMTP_PASSWORD go together" });
      }
    })
    .transform((env) => ({ ...env, mail: mailSettingsOf(env, ports), oidc: oidcSettingsOf(env) }));
}

/**
 * The mail settings the variables give (see SMTP_HOST above): production mails only through a server it is
 * told of; elsewhere the local one is the default, so `npm test` and the quickstart send real mail.
 */
function mailSettingsOf(
  env: { NODE_ENV: string; PORT: number; APP_ORIGIN?: string; SMTP_HOST?: string; SMTP_PORT?: number; SMTP_TLS?: MailSettings["tls"]; SMTP_USER?: string; SMTP_PASSWORD?: string; SMTP_FROM?: string; SMTP_MAILBOX_DIR?: string },
  ports: { smtp: number },
): MailSettings | MailOff {
  if (env.SMTP_HOST === NO_SMTP) return { off: "turned-off" };
  const local = env.SMTP_HOST === undefined;
  if (local && env.NODE_ENV === "production") return { off: "not-configured" };
  const auth = env.SMTP_USER !== undefined && env.SMTP_PASSWORD !== undefined ? { user: env.SMTP_USER, password: env.SMTP_PASSWORD } : {};
  return {
    host: env.SMTP_HOST ?? "127.0.0.1",
    port: env.SMTP_PORT ?? (local ? ports.smtp : env.SMTP_TLS === "implicit" ? 465 : 587),
    tls: env.SMTP_TLS ?? (local ? "off" : "starttls"),
    ...auth,
    from: env.SMTP_FROM ?? LOCAL_MAIL_FROM,
    origin: new URL(env.APP_ORIGIN ?? `http://localhost:${env.PORT}`).origin,
    mailboxDir: env.SMTP_MAILBOX_DIR ? path.resolve(env.SMTP_MAILBOX_DIR) : local ? path.resolve(LOCAL_MAILBOX_PATH) : null,
  };
}

/** The organisers' OpenID Connect provider, as the OIDC_* variables name it (null: no such sign-in). */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  label: string;
  createsAccounts: boolean;
  /** Where the provider sends the person back: on the site's public origin, never a request's Host. */
  redirectUri: string;
}

function oidcSettingsOf(env: { PORT: number; APP_ORIGIN?: string; OIDC_ISSUER?: string; OIDC_CLIENT_ID?: string; OIDC_CLIENT_SECRET?: string; OIDC_LABEL?: string; OIDC_CREATES_ACCOUNTS: boolean }): OidcSettings | null {
  if (env.OIDC_ISSUER === undefined || env.OIDC_CLIENT_ID === undefined || env.OIDC_CLIENT_SECRET === undefined || env.OIDC_LABEL === undefined) return null;
  const origin = new URL(env.APP_ORIGIN ?? `http://localhost:${env.PORT}`).origin;
  return {
    issuer: env.OIDC_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    label: env.OIDC_LABEL,
    createsAccounts: env.OIDC_CREATES_ACCOUNTS,
    redirectUri: `${origin}/auth/oidc/callback`,
  };
}

export type Env = z.infer<ReturnType<typeof envSchema>>;

export class EnvError extends Error {}

/**
 * The defaults point at this machine's project-local services: in production a missing one is a mistake
 * (a forgotten variable would otherwise talk to a dev instance or fail much later), so it must be set.
 */
const REQUIRED_IN_PRODUCTION = ["DATABASE_URL", "REDIS_URL", "S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;

/** Parses an environment (default: process.env); throws an EnvError naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // An empty variable means "not set": `FOO= npm start` should fall back to the default.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const result = envSchema(cleaned).safeParse(cleaned);
  const issues = result.success ? [] : result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  if (cleaned.NODE_ENV === "production") {
    for (const name of REQUIRED_IN_PRODUCTION) if (!(name in cleaned)) issues.push(`  ${name}: must be set in production`);
  }
  if (result.success && issues.length === 0) return result.data;
  throw new EnvError(`Invalid configuration:\n${issues.join("\n")}`);
}

let cached: Env | undefined;

/** The process's configuration; a bad value stops the process with a message naming it. */
export function getEnv(): Env {
  if (cached) return cached;
  try {
    cached = parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  return cached;
}

/** Benchmarks and tests that switch databases within one process re-read the environment. */
export function resetEnvForTests() {
  cached = undefined;
}
