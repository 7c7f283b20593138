CREATE TABLE "prediction_choice_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"challenge_id" integer NOT NULL,
	"submission_id" integer,
	"chosen_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "code_runs" ADD COLUMN "claim_token" text;--> statement-breakpoint
ALTER TABLE "prediction_choice_history" ADD CONSTRAINT "prediction_choice_history_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction_choice_history" ADD CONSTRAINT "prediction_choice_history_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction_choice_history" ADD CONSTRAINT "prediction_choice_history_submission_id_prediction_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."prediction_submissions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prediction_choice_history_team_idx" ON "prediction_choice_history" USING btree ("challenge_id","team_id","chosen_at");--> statement-breakpoint
-- The choices made before this table existed, dated when their file was scored (a choice cannot come earlier); while
-- the board is frozen, just after the freeze: whether such a choice came before it is not known, and one made after it
-- must not show (the frozen leaderboard then counts the team's latest file scored by the freeze).
INSERT INTO "prediction_choice_history" ("team_id", "challenge_id", "submission_id", "chosen_at")
SELECT c."team_id", c."challenge_id", c."submission_id",
  CASE WHEN e."scoreboard_frozen" AND e."frozen_at" IS NOT NULL
    THEN greatest(coalesce(s."scored_at", s."created_at"), e."frozen_at" + interval '1 millisecond')
    ELSE coalesce(s."scored_at", s."created_at") END
FROM "prediction_choices" c
JOIN "prediction_submissions" s ON s."id" = c."submission_id"
LEFT JOIN "event_settings" e ON e."id" = 1
ORDER BY c."team_id", c."challenge_id";
