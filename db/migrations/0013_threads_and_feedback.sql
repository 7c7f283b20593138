CREATE TYPE "public"."request_status" AS ENUM('open', 'claimed', 'answered', 'closed');--> statement-breakpoint
ALTER TYPE "public"."request_kind" ADD VALUE 'question';--> statement-breakpoint
ALTER TYPE "public"."role" ADD VALUE 'mentor';--> statement-breakpoint
CREATE TABLE "request_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"author_id" integer,
	"from_team" boolean NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "announcements" ADD COLUMN "challenge_id" integer;--> statement-breakpoint
ALTER TABLE "event_settings" ADD COLUMN "feedback_gates" smallint[] DEFAULT '{}'::smallint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "challenge_id" integer;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "status" "request_status" DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "claimed_by" integer;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "request_messages" ADD CONSTRAINT "request_messages_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_messages" ADD CONSTRAINT "request_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_messages_request_idx" ON "request_messages" USING btree ("request_id","id");--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_claimed_by_users_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "announcements_challenge_idx" ON "announcements" USING btree ("challenge_id");--> statement-breakpoint
CREATE INDEX "requests_status_created_at_idx" ON "requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "requests_team_idx" ON "requests" USING btree ("team_id");--> statement-breakpoint
-- Mentor calls and needs sent before threads existed were handled outside the platform: they start closed,
-- so the organisers' queue holds only what still waits for an answer.
UPDATE "requests" SET "status" = 'closed';
