CREATE TYPE "public"."category" AS ENUM('AI', 'CS', 'PS', 'GD');--> statement-breakpoint
CREATE TYPE "public"."challenge_status" AS ENUM('active', 'inactive');--> statement-breakpoint
CREATE TYPE "public"."difficulty" AS ENUM('Easy', 'Medium', 'Hard');--> statement-breakpoint
CREATE TYPE "public"."request_kind" AS ENUM('mentor', 'needs');--> statement-breakpoint
CREATE TYPE "public"."role" AS ENUM('admin', 'judge', 'participant');--> statement-breakpoint
CREATE TYPE "public"."submission_status" AS ENUM('pending', 'approved', 'rejected', 'reviewed');--> statement-breakpoint
CREATE TYPE "public"."tshirt_size" AS ENUM('S', 'M', 'L', 'XL', 'XXL');--> statement-breakpoint
CREATE TABLE "announcements" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "challenges" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"points" integer NOT NULL,
	"category" "category" NOT NULL,
	"difficulty" "difficulty",
	"hints" text,
	"wave" smallint,
	"status" "challenge_status" DEFAULT 'active' NOT NULL,
	"attachment_key" text,
	"attachment_name" text,
	"attachment_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "challenges_points_positive" CHECK ("challenges"."points" > 0),
	CONSTRAINT "challenges_wave_range" CHECK ("challenges"."wave" is null or "challenges"."wave" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "event_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"name" text DEFAULT 'Gatekeeper' NOT NULL,
	"time_zone" text DEFAULT 'Africa/Algiers' NOT NULL,
	"final_at" timestamp with time zone NOT NULL,
	"video1" text,
	"video2" text,
	"scoreboard_frozen" boolean DEFAULT false NOT NULL,
	"frozen_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_settings_single_row" CHECK ("event_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "frozen_standings" (
	"team_id" integer NOT NULL,
	"total_centi" integer NOT NULL,
	"solved_count" integer NOT NULL,
	"rank" integer,
	CONSTRAINT "frozen_standings_team_id_pk" PRIMARY KEY("team_id")
);
--> statement-breakpoint
CREATE TABLE "gates" (
	"number" smallint PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gates_number_range" CHECK ("gates"."number" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "meals" (
	"id" serial PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"message" text NOT NULL,
	"sent_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"national_id" text NOT NULL,
	"skill" text NOT NULL,
	"tshirt_size" "tshirt_size" NOT NULL,
	"has_team" boolean NOT NULL,
	"team_name" text,
	"linkedin" text,
	"portfolio" text,
	"major" text,
	"university" text,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" "request_kind" NOT NULL,
	"message" text NOT NULL,
	"user_id" integer,
	"team_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "standings" (
	"team_id" integer PRIMARY KEY NOT NULL,
	"ai_centi" integer DEFAULT 0 NOT NULL,
	"cs_centi" integer DEFAULT 0 NOT NULL,
	"ps_centi" integer DEFAULT 0 NOT NULL,
	"gd_centi" integer DEFAULT 0 NOT NULL,
	"total_centi" integer DEFAULT 0 NOT NULL,
	"solved_count" integer DEFAULT 0 NOT NULL,
	"rank" integer,
	"total_reached_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "standings_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"total_centi" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "standings_outbox" (
	"team_id" integer PRIMARY KEY NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submission_scores" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"judge_id" integer,
	"score_centi" integer NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "submission_scores_non_negative" CHECK ("submission_scores"."score_centi" >= 0)
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"challenge_id" integer NOT NULL,
	"user_id" integer,
	"text" text,
	"file_key" text,
	"file_name" text,
	"file_size" integer,
	"file_type" text,
	"status" "submission_status" DEFAULT 'pending' NOT NULL,
	"score_centi" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_statistics" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"ai_centi" integer DEFAULT 0 NOT NULL,
	"cs_centi" integer DEFAULT 0 NOT NULL,
	"ps_centi" integer DEFAULT 0 NOT NULL,
	"gd_centi" integer DEFAULT 0 NOT NULL,
	"total_centi" integer DEFAULT 0 NOT NULL,
	"ai_solved" integer DEFAULT 0 NOT NULL,
	"cs_solved" integer DEFAULT 0 NOT NULL,
	"ps_solved" integer DEFAULT 0 NOT NULL,
	"gd_solved" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" "role" DEFAULT 'participant' NOT NULL,
	"team_id" integer,
	"announcements_seen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "frozen_standings" ADD CONSTRAINT "frozen_standings_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "standings" ADD CONSTRAINT "standings_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "standings_history" ADD CONSTRAINT "standings_history_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "standings_outbox" ADD CONSTRAINT "standings_outbox_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_scores" ADD CONSTRAINT "submission_scores_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_scores" ADD CONSTRAINT "submission_scores_judge_id_users_id_fk" FOREIGN KEY ("judge_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_statistics" ADD CONSTRAINT "user_statistics_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "announcements_created_at_idx" ON "announcements" USING btree ("created_at" desc);--> statement-breakpoint
CREATE INDEX "challenges_wave_status_idx" ON "challenges" USING btree ("wave","status");--> statement-breakpoint
CREATE INDEX "meals_at_idx" ON "meals" USING btree ("at");--> statement-breakpoint
CREATE INDEX "notifications_created_at_idx" ON "notifications" USING btree ("created_at" desc);--> statement-breakpoint
CREATE UNIQUE INDEX "registrations_email_lower_key" ON "registrations" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "registrations_created_at_idx" ON "registrations" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "requests_kind_created_at_idx" ON "requests" USING btree ("kind","created_at" desc);--> statement-breakpoint
CREATE INDEX "standings_order_idx" ON "standings" USING btree ("total_centi" desc,"total_reached_at","team_id");--> statement-breakpoint
CREATE INDEX "standings_history_team_at_idx" ON "standings_history" USING btree ("team_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "submission_scores_submission_judge_key" ON "submission_scores" USING btree ("submission_id","judge_id");--> statement-breakpoint
CREATE INDEX "submission_scores_judge_id_idx" ON "submission_scores" USING btree ("judge_id");--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_team_challenge_key" ON "submissions" USING btree ("team_id","challenge_id");--> statement-breakpoint
CREATE INDEX "submissions_challenge_id_idx" ON "submissions" USING btree ("challenge_id");--> statement-breakpoint
CREATE INDEX "submissions_user_id_idx" ON "submissions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "submissions_status_idx" ON "submissions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "submissions_created_at_idx" ON "submissions" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_name_lower_key" ON "teams" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_name_lower_key" ON "users" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "users_team_id_idx" ON "users" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role");