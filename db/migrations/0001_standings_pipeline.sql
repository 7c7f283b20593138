CREATE SEQUENCE "public"."standings_outbox_version_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "frozen_standings" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "frozen_standings" CASCADE;--> statement-breakpoint
ALTER TABLE "event_settings" ADD COLUMN "frozen_board" jsonb;--> statement-breakpoint
ALTER TABLE "standings_outbox" ADD COLUMN "version" bigint DEFAULT nextval('standings_outbox_version_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "scored_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "standings_rank_idx" ON "standings" USING btree ("rank");