CREATE TABLE "challenge_hints" (
	"id" serial PRIMARY KEY NOT NULL,
	"challenge_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"text" text NOT NULL,
	"cost_centi" integer NOT NULL,
	CONSTRAINT "challenge_hints_cost_range" CHECK ("challenge_hints"."cost_centi" between 0 and 10000000)
);
--> statement-breakpoint
CREATE TABLE "hint_unlocks" (
	"team_id" integer NOT NULL,
	"hint_id" integer NOT NULL,
	"user_id" integer,
	"cost_centi" integer NOT NULL,
	"unlocked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hint_unlocks_team_id_hint_id_pk" PRIMARY KEY("team_id","hint_id")
);
--> statement-breakpoint
ALTER TABLE "challenge_hints" ADD CONSTRAINT "challenge_hints_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hint_unlocks" ADD CONSTRAINT "hint_unlocks_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hint_unlocks" ADD CONSTRAINT "hint_unlocks_hint_id_challenge_hints_id_fk" FOREIGN KEY ("hint_id") REFERENCES "public"."challenge_hints"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hint_unlocks" ADD CONSTRAINT "hint_unlocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "challenge_hints_position_key" ON "challenge_hints" USING btree ("challenge_id","position");--> statement-breakpoint
-- A team's points that are not answers (db/schema.ts `teamAwards`): awards, and hint unlocks' costs.
CREATE VIEW "team_awards" AS
	SELECT a.team_id, a.points_centi, a.category, a.created_at, a.revoked_at FROM "awards" a
	UNION ALL
	SELECT u.team_id, -u.cost_centi AS points_centi, c.category, u.unlocked_at AS created_at, NULL::timestamptz AS revoked_at
	FROM "hint_unlocks" u INNER JOIN "challenge_hints" h ON h.id = u.hint_id INNER JOIN "challenges" c ON c.id = h.challenge_id
	WHERE u.cost_centi > 0;
