import { sandboxHost } from "../../app/infrastructure/sandbox/sandbox.server.ts";
import { runMigrations } from "../../scripts/migrate.ts";
import { databaseUrlFor, TEMPLATE_DATABASE, withAdminConnection } from "./databases.ts";

/** Once per run: a template database with every migration applied; each test file copies it. */
export default async function setup() {
  // The integration and drills projects share this setup; vitest runs both before any test file starts.
  if (process.env.GK_TEST_TEMPLATE_READY === "1") return;
  // A run that must prove the code sandbox (CI: GATEKEEPER_REQUIRE_SANDBOX=1) fails here rather than let its tests skip.
  if (process.env.GATEKEEPER_REQUIRE_SANDBOX === "1") {
    const host = await sandboxHost();
    if ("reason" in host) throw new Error(`GATEKEEPER_REQUIRE_SANDBOX=1, but this machine cannot sandbox: ${host.reason}`);
  }
  // The server's own URL, kept before DATABASE_URL is pointed at each file's database.
  if (!process.env.TEST_BASE_DATABASE_URL && process.env.DATABASE_URL) {
    process.env.TEST_BASE_DATABASE_URL = process.env.DATABASE_URL;
  }
  await withAdminConnection(async (sql) => {
    await sql.unsafe(`drop database if exists "${TEMPLATE_DATABASE}" with (force)`);
    await sql.unsafe(`create database "${TEMPLATE_DATABASE}"`);
  });
  await runMigrations(databaseUrlFor(TEMPLATE_DATABASE));
  process.env.GK_TEST_TEMPLATE_READY = "1";
}
