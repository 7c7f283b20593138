-- Divisions (the event's list, a team's one) and the team size cap (docs/domain.md "Divisions", "Teams").
-- A team's division is checked against the list by the teams module, under a lock on the settings row.
ALTER TABLE "event_settings" ADD COLUMN "divisions" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "event_settings" ADD COLUMN "team_size_cap" smallint DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "division" text;--> statement-breakpoint
ALTER TABLE "event_settings" ADD CONSTRAINT "event_settings_team_size_cap" CHECK ("event_settings"."team_size_cap" between 1 and 100);--> statement-breakpoint
-- An event upgraded mid-way had no cap: it starts at its largest team (at least the default 5, at most the
-- check's 100), so no team that exists is refused its next member by the upgrade alone.
UPDATE "event_settings" SET "team_size_cap" = LEAST(100, GREATEST(5, (SELECT coalesce(max(members), 0) FROM (SELECT count(*) AS members FROM "users" WHERE "team_id" IS NOT NULL GROUP BY "team_id") AS sizes)));