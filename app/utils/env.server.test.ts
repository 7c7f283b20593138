import { describe, expect, it } from "vitest";
import { DEV_SESSION_SECRET, parseEnv } from "./env.server";

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

  it("refuses the default or a short session secret in production", () => {
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrowError(/SESSION_SECRET/);
    expect(() => parseEnv({ NODE_ENV: "production", SESSION_SECRET: DEV_SESSION_SECRET })).toThrowError(
      /SESSION_SECRET/,
    );
    expect(() => parseEnv({ NODE_ENV: "production", SESSION_SECRET: "short-but-16-chars" })).toThrowError(
      /at least 32 characters/,
    );
    expect(parseEnv({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32) }).SESSION_SECRET).toHaveLength(32);
  });
});
