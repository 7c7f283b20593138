import { defineConfig } from "drizzle-kit";
import { localServiceUrls } from "./app/infrastructure/local-services.ts";

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema.ts",
  out: "./db/migrations",
  dbCredentials: { url: process.env.DATABASE_URL ?? localServiceUrls().databaseUrl },
});
