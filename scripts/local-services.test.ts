/**
 * The project-local services have one set of defaults (app/infrastructure/local-services.ts): what the app's
 * configuration falls back to is what the scripts start and hand to the processes they launch, with
 * GATEKEEPER_PORT_OFFSET or without; and every script a document tells a reader to run starts what it needs.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../app/infrastructure/env.server.ts";
import { localPorts } from "../app/infrastructure/local-services.ts";
import { productionServiceEnv, REPO_ROOT } from "./lib/local-services.ts";

describe("the project-local services' defaults", () => {
  it.each([{}, { GATEKEEPER_PORT_OFFSET: "7" }])("are the same for the app and the scripts (%o)", (source) => {
    const app = parseEnv(source);
    const scripts = productionServiceEnv(source);
    expect(app.DATABASE_URL).toBe(scripts.DATABASE_URL);
    expect(app.REDIS_URL).toBe(scripts.REDIS_URL);
    expect(app.S3_ENDPOINT).toBe(scripts.S3_ENDPOINT);
    expect(app.S3_ACCESS_KEY_ID).toBe(scripts.S3_ACCESS_KEY_ID);
    expect(app.S3_SECRET_ACCESS_KEY).toBe(scripts.S3_SECRET_ACCESS_KEY);
  });

  it("move together, the web port with them, by GATEKEEPER_PORT_OFFSET", () => {
    const moved = parseEnv({ GATEKEEPER_PORT_OFFSET: "7" });
    expect(moved.DATABASE_URL).toBe("postgres://postgres@127.0.0.1:55439/gatekeeper");
    expect(moved.REDIS_URL).toBe("redis://127.0.0.1:56386");
    expect(moved.S3_ENDPOINT).toBe("http://127.0.0.1:54576");
    expect(moved.PORT).toBe(3007);
    expect(moved.WORKER_METRICS_PORT).toBe(9471);
    // A variable set explicitly still wins.
    expect(parseEnv({ GATEKEEPER_PORT_OFFSET: "7", PORT: "8080" }).PORT).toBe(8080);
  });

  it("never put one service on another's port, whatever the two checkouts' offsets", () => {
    const taken = new Map<number, string>();
    for (let offset = 0; offset <= 99; offset++) {
      for (const [service, port] of Object.entries(localPorts({ GATEKEEPER_PORT_OFFSET: String(offset) }))) {
        const owner = taken.get(port);
        expect(owner === undefined || owner === service, `${service} at offset ${offset} takes ${owner}'s port ${port}`).toBe(true);
        taken.set(port, service);
      }
    }
  });

  it.each(["100", "-1", "x", "1.5"])("refuse the offset %s, naming the variable", (offset) => {
    expect(() => parseEnv({ GATEKEEPER_PORT_OFFSET: offset })).toThrowError(/GATEKEEPER_PORT_OFFSET: a whole number from 0 to 99/);
    expect(() => localPorts({ GATEKEEPER_PORT_OFFSET: offset })).toThrowError(/GATEKEEPER_PORT_OFFSET/);
  });
});

describe("npm scripts a document names", () => {
  const scripts = (JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

  it("start the services before a benchmark or the soak (else each ended in ECONNREFUSED on a fresh clone)", () => {
    const runners = Object.entries(scripts).filter(([, command]) => /bench\/(?!run\.ts)[\w-]+\.ts/.test(command));
    expect(runners.map(([name]) => name)).toEqual(expect.arrayContaining(["bench:live", "bench:pages", "bench:event-day", "soak"]));
    for (const [name, command] of runners) expect(command, name).toMatch(/^bash scripts\/prepare\.sh services\b[^&]*&& /);
  });

  it("install the browser before a benchmark that loads pages in one", () => {
    expect(scripts["bench:pages"]).toMatch(/^bash scripts\/prepare\.sh [^&]*\bchromium\b/);
    expect(scripts.bench).toMatch(/^bash scripts\/prepare\.sh [^&]*\bchromium\b/);
  });
});
