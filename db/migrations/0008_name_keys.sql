-- A provisional key for the rows already there, unique by their id (U+200B never appears in a computed
-- key: names refuse it). scripts/migrate.ts then computes each row's real key (app/modules/names/names.ts).
ALTER TABLE "teams" ADD COLUMN "name_key" text;--> statement-breakpoint
UPDATE "teams" SET "name_key" = lower("name") || U&'\200B' || "id";--> statement-breakpoint
ALTER TABLE "teams" ALTER COLUMN "name_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "name_key" text;--> statement-breakpoint
UPDATE "users" SET "name_key" = lower("name") || U&'\200B' || "id";--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "name_key" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "teams_name_key_key" ON "teams" USING btree ("name_key");--> statement-breakpoint
CREATE UNIQUE INDEX "users_name_key_key" ON "users" USING btree ("name_key");
