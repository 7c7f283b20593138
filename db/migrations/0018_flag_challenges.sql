CREATE TYPE "public"."attempt_verdict" AS ENUM('correct', 'incorrect');--> statement-breakpoint
CREATE TYPE "public"."checking" AS ENUM('judges', 'flag');--> statement-breakpoint
CREATE TYPE "public"."flag_kind" AS ENUM('exact', 'exact_ci', 'regex', 'per_team');--> statement-breakpoint
CREATE TABLE "challenge_flags" (
	"id" serial PRIMARY KEY NOT NULL,
	"challenge_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"kind" "flag_kind" NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flag_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"user_id" integer,
	"challenge_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"verdict" "attempt_verdict" NOT NULL,
	"matched" smallint,
	"answer" text,
	"counted" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flag_sharing" (
	"id" serial PRIMARY KEY NOT NULL,
	"challenge_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"owner_team_id" integer NOT NULL,
	"user_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flag_solves" (
	"team_id" integer NOT NULL,
	"challenge_id" integer NOT NULL,
	"user_id" integer,
	"solved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flag_solves_team_id_challenge_id_pk" PRIMARY KEY("team_id","challenge_id")
);
--> statement-breakpoint
CREATE TABLE "team_flags" (
	"challenge_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"digest" text NOT NULL,
	CONSTRAINT "team_flags_challenge_id_team_id_pk" PRIMARY KEY("challenge_id","team_id")
);
--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "checking" "checking" DEFAULT 'judges' NOT NULL;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "flag_secret" text;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "wrong_per_minute" smallint;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "max_attempts" integer;--> statement-breakpoint
ALTER TABLE "event_settings" ADD COLUMN "flag_wrong_per_minute" smallint DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "challenge_flags" ADD CONSTRAINT "challenge_flags_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_attempts" ADD CONSTRAINT "flag_attempts_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_attempts" ADD CONSTRAINT "flag_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_attempts" ADD CONSTRAINT "flag_attempts_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_sharing" ADD CONSTRAINT "flag_sharing_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_sharing" ADD CONSTRAINT "flag_sharing_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_sharing" ADD CONSTRAINT "flag_sharing_owner_team_id_teams_id_fk" FOREIGN KEY ("owner_team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_sharing" ADD CONSTRAINT "flag_sharing_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_solves" ADD CONSTRAINT "flag_solves_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_solves" ADD CONSTRAINT "flag_solves_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_solves" ADD CONSTRAINT "flag_solves_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_flags" ADD CONSTRAINT "team_flags_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_flags" ADD CONSTRAINT "team_flags_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "challenge_flags_position_key" ON "challenge_flags" USING btree ("challenge_id","position");--> statement-breakpoint
CREATE INDEX "flag_attempts_team_challenge_idx" ON "flag_attempts" USING btree ("team_id","challenge_id","at");--> statement-breakpoint
CREATE INDEX "flag_attempts_challenge_idx" ON "flag_attempts" USING btree ("challenge_id","at");--> statement-breakpoint
CREATE INDEX "flag_attempts_at_idx" ON "flag_attempts" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "flag_sharing_at_idx" ON "flag_sharing" USING btree ("at");--> statement-breakpoint
CREATE INDEX "flag_solves_challenge_idx" ON "flag_solves" USING btree ("challenge_id","solved_at");--> statement-breakpoint
CREATE INDEX "flag_solves_user_idx" ON "flag_solves" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_flags_digest_key" ON "team_flags" USING btree ("challenge_id","digest");--> statement-breakpoint
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_wrong_per_minute_range" CHECK ("challenges"."wrong_per_minute" is null or "challenges"."wrong_per_minute" between 1 and 1000);--> statement-breakpoint
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_max_attempts_positive" CHECK ("challenges"."max_attempts" is null or "challenges"."max_attempts" > 0);--> statement-breakpoint
ALTER TABLE "event_settings" ADD CONSTRAINT "event_settings_flag_wrong_per_minute" CHECK ("event_settings"."flag_wrong_per_minute" between 1 and 1000);--> statement-breakpoint
-- What each team's answers count, judged or checked (db/schema.ts `teamAnswers`): a submission as judged,
-- and a flag solve at the challenge's whole points (solved by definition).
CREATE VIEW "team_answers" AS
	SELECT s.team_id, s.challenge_id, s.user_id, s.rejected, s.score_centi, s.scored_at FROM "submissions" s
	UNION ALL
	SELECT f.team_id, f.challenge_id, f.user_id, false AS rejected, c.points * 100 AS score_centi, f.solved_at AS scored_at
	FROM "flag_solves" f INNER JOIN "challenges" c ON c.id = f.challenge_id;
