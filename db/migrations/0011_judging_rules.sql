CREATE TABLE "challenge_criteria" (
	"id" serial PRIMARY KEY NOT NULL,
	"challenge_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"name" text NOT NULL,
	"weight" integer NOT NULL,
	"max_points" integer NOT NULL,
	CONSTRAINT "challenge_criteria_weight_positive" CHECK ("challenge_criteria"."weight" > 0),
	CONSTRAINT "challenge_criteria_max_positive" CHECK ("challenge_criteria"."max_points" > 0)
);
--> statement-breakpoint
CREATE TABLE "criterion_scores" (
	"submission_score_id" integer NOT NULL,
	"criterion_id" integer NOT NULL,
	"score_centi" integer NOT NULL,
	CONSTRAINT "criterion_scores_submission_score_id_criterion_id_pk" PRIMARY KEY("submission_score_id","criterion_id"),
	CONSTRAINT "criterion_scores_non_negative" CHECK ("criterion_scores"."score_centi" >= 0)
);
--> statement-breakpoint
CREATE TABLE "judge_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"judge_id" integer NOT NULL,
	"wave" smallint,
	"category" "category",
	CONSTRAINT "judge_assignments_something" CHECK ("judge_assignments"."wave" is not null or "judge_assignments"."category" is not null),
	CONSTRAINT "judge_assignments_wave_range" CHECK ("judge_assignments"."wave" is null or "judge_assignments"."wave" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "judge_claims" (
	"judge_id" integer PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_settings" ADD COLUMN "judges_per_submission" smallint;--> statement-breakpoint
ALTER TABLE "event_settings" ADD COLUMN "blind_judging" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "challenge_criteria" ADD CONSTRAINT "challenge_criteria_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "criterion_scores" ADD CONSTRAINT "criterion_scores_submission_score_id_submission_scores_id_fk" FOREIGN KEY ("submission_score_id") REFERENCES "public"."submission_scores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "criterion_scores" ADD CONSTRAINT "criterion_scores_criterion_id_challenge_criteria_id_fk" FOREIGN KEY ("criterion_id") REFERENCES "public"."challenge_criteria"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_assignments" ADD CONSTRAINT "judge_assignments_judge_id_users_id_fk" FOREIGN KEY ("judge_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_claims" ADD CONSTRAINT "judge_claims_judge_id_users_id_fk" FOREIGN KEY ("judge_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_claims" ADD CONSTRAINT "judge_claims_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "challenge_criteria_position_key" ON "challenge_criteria" USING btree ("challenge_id","position");--> statement-breakpoint
CREATE INDEX "judge_assignments_judge_idx" ON "judge_assignments" USING btree ("judge_id");--> statement-breakpoint
CREATE INDEX "judge_claims_submission_idx" ON "judge_claims" USING btree ("submission_id");--> statement-breakpoint
ALTER TABLE "event_settings" ADD CONSTRAINT "event_settings_judges_per_submission" CHECK ("event_settings"."judges_per_submission" is null or "event_settings"."judges_per_submission" between 1 and 20);