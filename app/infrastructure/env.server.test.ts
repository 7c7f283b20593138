import { describe, expect, it } from "vitest";
import { DEV_SESSION_SECRET, parseEnv } from "./env.server";

/** A production environment that passes: every service named, a long secret. */
const production = {
  NODE_ENV: "production",
  SESSION_SECRET: "x".repeat(32),
  DATABASE_URL: "postgres://db/gk",
  REDIS_URL: "redis://cache:6379",
  S3_ENDPOINT: "https://s3.example.org",
  S3_ACCESS_KEY_ID: "key",
  S3_SECRET_ACCESS_KEY: "secret",
};

describe("configuration", () => {
  it("falls back to the project-local services when nothing is set", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBe("postgres://postgres@127.0.0.1:55432/gatekeeper");
    expect(env.REDIS_URL).toBe("redis://127.0.0.1:56379");
    expect(env.S3_ENDPOINT).toBe("http://127.0.0.1:54569");
    expect(env.PORT).toBe(3000);
  });

  it("names every malformed variable", () => {
    const parse = () => parseEnv({ DATABASE_URL: "mysql://x", PORT: "eighty" });
    expect(parse).toThrowError(/DATABASE_URL: must start with postgres:\/\//);
    expect(parse).toThrowError(/PORT: /);
  });

  it("treats an empty variable as unset", () => {
    expect(parseEnv({ PORT: "" }).PORT).toBe(3000);
  });

  it("needs the services named explicitly in production, and says which are missing", () => {
    const parse = () => parseEnv({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32), REDIS_URL: "redis://cache:6379" });
    expect(parse).toThrowError(/DATABASE_URL: must be set in production/);
    expect(parse).toThrowError(/S3_ENDPOINT: must be set in production/);
    expect(parse).not.toThrowError(/REDIS_URL/);
  });

  it("refuses the default or a short session secret in production", () => {
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrowError(/SESSION_SECRET/);
    expect(() => parseEnv({ NODE_ENV: "production", SESSION_SECRET: DEV_SESSION_SECRET })).toThrowError(
      /SESSION_SECRET/,
    );
    expect(() => parseEnv({ NODE_ENV: "production", SESSION_SECRET: "short-but-16-chars" })).toThrowError(
      /at least 32 characters/,
    );
    const services = {
      DATABASE_URL: "postgres://db/gk",
      REDIS_URL: "redis://cache:6379",
      S3_ENDPOINT: "https://s3.example.org",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
    };
    expect(parseEnv({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32), ...services }).SESSION_SECRET).toHaveLength(32);
  });

  it("serves metrics only with a token, and a long one in production", () => {
    expect(parseEnv({}).METRICS_TOKEN).toBeUndefined();
    expect(() => parseEnv({ METRICS_TOKEN: "short" })).toThrowError(/METRICS_TOKEN/);
    expect(() => parseEnv({ ...production, METRICS_TOKEN: "y".repeat(20) })).toThrowError(/METRICS_TOKEN.*at least 32/s);
    expect(parseEnv({ ...production, METRICS_TOKEN: "y".repeat(32) }).METRICS_TOKEN).toHaveLength(32);
    expect(parseEnv({ WORKER_METRICS_PORT: "9500" }).WORKER_METRICS_PORT).toBe(9500);
  });

  it("lets the first-blood webhook post to this machine only outside production (tests' local receiver)", () => {
    expect(parseEnv({}).WEBHOOK_ALLOW_LOOPBACK).toBe(false);
    expect(parseEnv({ WEBHOOK_ALLOW_LOOPBACK: "1" }).WEBHOOK_ALLOW_LOOPBACK).toBe(true);
    expect(() => parseEnv({ ...production, WEBHOOK_ALLOW_LOOPBACK: "true" })).toThrowError(/WEBHOOK_ALLOW_LOOPBACK: a test-only setting/);
    expect(parseEnv({ ...production, WEBHOOK_ALLOW_LOOPBACK: "0" }).WEBHOOK_ALLOW_LOOPBACK).toBe(false);
  });

  it("mails through the project's own SMTP server outside production, and in production only through one it is told of", () => {
    expect(parseEnv({ GATEKEEPER_PORT_OFFSET: "7" }).mail).toMatchObject({ host: "127.0.0.1", port: 52532, tls: "off", origin: "http://localhost:3007" });
    expect(parseEnv({ SMTP_HOST: "none" }).mail).toEqual({ off: "turned-off" });
    // Production without SMTP_HOST starts, with mail off (the flows that need it say so).
    expect(parseEnv(production).mail).toEqual({ off: "not-configured" });
    const relay = { ...production, SMTP_HOST: "smtp.example.org", SMTP_FROM: "Gatekeeper <noreply@example.org>", APP_ORIGIN: "https://gates.example.org" };
    expect(parseEnv(relay).mail).toMatchObject({ host: "smtp.example.org", port: 587, tls: "starttls", origin: "https://gates.example.org", mailboxDir: null });
    expect(parseEnv({ ...relay, SMTP_TLS: "implicit" }).mail).toMatchObject({ port: 465, tls: "implicit" });
    // What production refuses, naming the variable.
    expect(() => parseEnv({ ...relay, SMTP_FROM: undefined })).toThrowError(/SMTP_FROM: production needs the sender/);
    expect(() => parseEnv({ ...relay, APP_ORIGIN: undefined })).toThrowError(/APP_ORIGIN: the links mailed/);
    expect(() => parseEnv({ ...relay, SMTP_TLS: "off" })).toThrowError(/SMTP_TLS: off sends the links in clear/);
    expect(parseEnv({ ...relay, SMTP_HOST: "127.0.0.1", SMTP_TLS: "off" }).mail).toMatchObject({ tls: "off" });
    expect(() => parseEnv({ SMTP_USER: "gatekeeper" })).toThrowError(/SMTP_PASSWORD: SMTP_USER and SMTP_PASSWORD go together/);
    // A sender or a host that could carry another header is refused.
    expect(() => parseEnv({ SMTP_FROM: "Gatekeeper <a@b.example>\r\nBcc: thief@example.org" })).toThrowError(/SMTP_FROM/);
    expect(() => parseEnv({ SMTP_HOST: "smtp.example.org\r\nX: y" })).toThrowError(/SMTP_HOST/);
  });

  it("signs in through an identity provider only when OIDC_ISSUER and its client are all set; production only over HTTPS, back to APP_ORIGIN", () => {
    expect(parseEnv({}).oidc).toBeNull();
    const provider = { OIDC_ISSUER: "http://127.0.0.1:9000", OIDC_CLIENT_ID: "gatekeeper", OIDC_CLIENT_SECRET: "secret", OIDC_LABEL: " University account " };
    expect(parseEnv({ ...provider, GATEKEEPER_PORT_OFFSET: "7" }).oidc).toEqual({
      issuer: "http://127.0.0.1:9000",
      clientId: "gatekeeper",
      clientSecret: "secret",
      label: "University account",
      createsAccounts: false,
      redirectUri: "http://localhost:3007/auth/oidc/callback",
    });
    expect(parseEnv({ ...provider, OIDC_CREATES_ACCOUNTS: "1" }).oidc).toMatchObject({ createsAccounts: true });
    expect(() => parseEnv({ ...provider, OIDC_CLIENT_SECRET: undefined })).toThrowError(/OIDC_CLIENT_SECRET: OIDC_ISSUER needs/);
    expect(() => parseEnv({ ...provider, OIDC_LABEL: "Uni\r\nX" })).toThrowError(/OIDC_LABEL/);
    const live = { ...production, ...provider, OIDC_ISSUER: "https://id.example.org/realms/uni", APP_ORIGIN: "https://gates.example.org" };
    expect(parseEnv(live).oidc).toMatchObject({ redirectUri: "https://gates.example.org/auth/oidc/callback" });
    expect(() => parseEnv({ ...live, OIDC_ISSUER: "http://id.example.org" })).toThrowError(/OIDC_ISSUER: production talks to its identity provider over HTTPS/);
    expect(() => parseEnv({ ...live, APP_ORIGIN: undefined })).toThrowError(/APP_ORIGIN: the identity provider sends people back/);
    // A value that is no URL is said to be one, not a crash of the check beside it.
    expect(() => parseEnv({ ...live, OIDC_ISSUER: "ht tp://id example" })).toThrowError(/Invalid configuration:[\s\S]*OIDC_ISSUER: Invalid URL/);
  });
});
