CREATE TABLE "prediction_choice_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"challenge_id" integer NOT NULL,
	"submission_id" integer,
	"chosen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prediction_choice_history" ADD CONSTRAINT "prediction_choice_history_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction_choice_history" ADD CONSTRAINT "prediction_choice_history_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction_choice_history" ADD CONSTRAINT "prediction_choice_history_submission_id_prediction_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."prediction_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prediction_choice_history_team_idx" ON "prediction_choice_history" USING btree ("challenge_id","team_id","chosen_at");--> statement-breakpoint
-- The choices made before this table existed, dated when their file was scored (a choice cannot come earlier).
INSERT INTO "prediction_choice_history" ("team_id", "challenge_id", "submission_id", "chosen_at")
SELECT c."team_id", c."challenge_id", c."submission_id", coalesce(s."scored_at", s."created_at")
FROM "prediction_choices" c JOIN "prediction_submissions" s ON s."id" = c."submission_id";
