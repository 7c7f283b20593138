CREATE TYPE "public"."prediction_metric" AS ENUM('accuracy', 'macro_f1', 'rmse', 'mae', 'roc_auc');--> statement-breakpoint
CREATE TYPE "public"."prediction_status" AS ENUM('queued', 'scored', 'failed');--> statement-breakpoint
ALTER TYPE "public"."checking" ADD VALUE 'metric';--> statement-breakpoint
CREATE TABLE "prediction_challenges" (
	"challenge_id" integer PRIMARY KEY NOT NULL,
	"metric" "prediction_metric" NOT NULL,
	"public_percent" smallint DEFAULT 30 NOT NULL,
	"baseline" double precision NOT NULL,
	"target" double precision NOT NULL,
	"daily_limit" smallint DEFAULT 5 NOT NULL,
	"seed" text NOT NULL,
	"labels_key" text,
	"labels_name" text,
	"labels_rows" integer,
	"id_column" text,
	"target_column" text,
	"revealed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prediction_challenges_public_percent_range" CHECK ("prediction_challenges"."public_percent" between 1 and 99),
	CONSTRAINT "prediction_challenges_daily_limit_range" CHECK ("prediction_challenges"."daily_limit" between 1 and 1000),
	CONSTRAINT "prediction_challenges_baseline_target" CHECK ("prediction_challenges"."baseline" <> "prediction_challenges"."target")
);
--> statement-breakpoint
CREATE TABLE "prediction_choices" (
	"team_id" integer NOT NULL,
	"challenge_id" integer NOT NULL,
	"submission_id" integer NOT NULL,
	CONSTRAINT "prediction_choices_team_id_challenge_id_pk" PRIMARY KEY("team_id","challenge_id")
);
--> statement-breakpoint
CREATE TABLE "prediction_submissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"challenge_id" integer NOT NULL,
	"user_id" integer,
	"file_key" text NOT NULL,
	"file_name" text NOT NULL,
	"file_size" integer NOT NULL,
	"day" date NOT NULL,
	"status" "prediction_status" DEFAULT 'queued' NOT NULL,
	"faults" jsonb,
	"public_score" double precision,
	"private_score" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"scored_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "prediction_challenges" ADD CONSTRAINT "prediction_challenges_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction_choices" ADD CONSTRAINT "prediction_choices_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction_choices" ADD CONSTRAINT "prediction_choices_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction_choices" ADD CONSTRAINT "prediction_choices_submission_id_prediction_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."prediction_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction_submissions" ADD CONSTRAINT "prediction_submissions_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction_submissions" ADD CONSTRAINT "prediction_submissions_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction_submissions" ADD CONSTRAINT "prediction_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prediction_submissions_team_challenge_idx" ON "prediction_submissions" USING btree ("team_id","challenge_id","id");--> statement-breakpoint
CREATE INDEX "prediction_submissions_challenge_idx" ON "prediction_submissions" USING btree ("challenge_id","status");--> statement-breakpoint
CREATE INDEX "prediction_submissions_day_idx" ON "prediction_submissions" USING btree ("team_id","challenge_id","day");--> statement-breakpoint
-- A prediction challenge's answer is the team's counted submission (its choice, else its latest scored one) at its
-- public points, its private ones once the challenge is revealed (docs/domain.md "Prediction challenges"); judged
-- like a submission (not a flag): solved at 65 % of the points.
CREATE OR REPLACE VIEW "team_answers" AS
	SELECT s.team_id, s.challenge_id, s.user_id, s.rejected, s.score_centi, s.scored_at, false AS flag FROM "submissions" s
	UNION ALL
	SELECT f.team_id, f.challenge_id, f.user_id, false AS rejected,
		(CASE WHEN c.scoring = 'dynamic' THEN greatest(c.minimum_points::bigint, c.points - (c.points - c.minimum_points)::bigint
			* (SELECT (count(*) - 1) * (count(*) - 1) FROM "flag_solves" x WHERE x.challenge_id = f.challenge_id) / (c.decay::bigint * c.decay))
		ELSE c.points END * 100)::integer AS score_centi,
		f.solved_at AS scored_at, true AS flag
	FROM "flag_solves" f INNER JOIN "challenges" c ON c.id = f.challenge_id
	UNION ALL
	SELECT p.team_id, p.challenge_id, p.user_id, false AS rejected,
		-- app/modules/predictions/metrics.ts `pointsCentiOf`, the same operations on the same float8 values.
		coalesce(floor((c.points * 100)::float8 * least(1::float8, greatest(0::float8,
			(CASE WHEN pc.revealed_at IS NOT NULL THEN p.private_score ELSE p.public_score END - pc.baseline) / (pc.target - pc.baseline))) + 0.5)::integer, 0) AS score_centi,
		p.scored_at, false AS flag
	FROM (
		SELECT DISTINCT ON (ps.team_id, ps.challenge_id) ps.team_id, ps.challenge_id, ps.user_id, ps.public_score, ps.private_score, ps.scored_at
		FROM "prediction_submissions" ps
		LEFT JOIN "prediction_choices" ch ON ch.team_id = ps.team_id AND ch.challenge_id = ps.challenge_id
		WHERE ps.status = 'scored'
		ORDER BY ps.team_id, ps.challenge_id, (ps.id = ch.submission_id) DESC NULLS LAST, ps.id DESC
	) p INNER JOIN "prediction_challenges" pc ON pc.challenge_id = p.challenge_id INNER JOIN "challenges" c ON c.id = p.challenge_id;
