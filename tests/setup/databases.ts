import { createHash } from "node:crypto";
import postgres from "postgres";
import { DEFAULT_DATABASE_URL, REPO_ROOT } from "../../scripts/lib/local-services.ts";

/** The server the tests run against: DATABASE_URL when set, else the project-local instance. */
export function baseDatabaseUrl(): string {
  return process.env.TEST_BASE_DATABASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
}

export function databaseUrlFor(name: string): string {
  const url = new URL(baseDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** Two checkouts testing against one Postgres must not drop each other's databases: fixed names carry this. */
const checkoutTag = createHash("sha256").update(REPO_ROOT).digest("hex").slice(0, 8);

export const TEMPLATE_DATABASE = `gatekeeper_test_template_${checkoutTag}`;

/** The e2e server's own S3 bucket, so a test can tell what that server stored (and only that). */
export const E2E_BUCKET = process.env.E2E_BUCKET ?? `gatekeeper-e2e-${checkoutTag}`;

/** The e2e server's database (fresh each run). */
export const E2E_DATABASE = process.env.E2E_DATABASE ?? `gatekeeper_e2e_${checkoutTag}`;

/** Runs `fn` with a connection to the server's maintenance database (for CREATE/DROP DATABASE). */
export async function withAdminConnection<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(databaseUrlFor("postgres"), { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** A fresh database copied from the migrated template (fast: no migrations per test file). */
export async function createDatabaseFromTemplate(name: string): Promise<string> {
  await withAdminConnection(async (sql) => {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
    await sql.unsafe(`create database "${name}" template "${TEMPLATE_DATABASE}"`);
  });
  return databaseUrlFor(name);
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdminConnection((sql) => sql.unsafe(`drop database if exists "${name}" with (force)`));
}
