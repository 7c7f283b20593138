import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { logSerializers } from "./logger.server";

describe("logs of a failed query", () => {
  it("keep the query and the reason, never the values", () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_name_lower_key"'), {
      parameters: ["amina", "$argon2id$v=19$m=19456,t=2,p=1$salt$hash"],
      args: ["amina", "$argon2id$v=19$m=19456,t=2,p=1$salt$hash"],
    });
    const error = Object.assign(new Error('Failed query: insert into "users" ("name", "password_hash") values ($1, $2)\nparams: amina,$argon2id$v=19$m=19456,t=2,p=1$salt$hash'), {
      query: 'insert into "users" ("name", "password_hash") values ($1, $2)',
      params: ["amina", "$argon2id$v=19$m=19456,t=2,p=1$salt$hash"],
      cause,
    });
    // The app's own serializers, on a logger that writes here.
    const logger = pino({ serializers: logSerializers }, sink);
    logger.error({ err: error }, "user not created");
    const line = lines.join("");
    expect(line).toContain('insert into \\"users\\"');
    expect(line).toContain("duplicate key value");
    expect(line).not.toContain("argon2id");
    expect(line).not.toContain("amina");
  });
});
