CREATE TYPE "public"."scoring" AS ENUM('static', 'dynamic');--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "scoring" "scoring" DEFAULT 'static' NOT NULL;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "minimum_points" integer;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "decay" integer;--> statement-breakpoint
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_dynamic_scoring" CHECK ("challenges"."scoring" = 'static' or ("challenges"."checking" = 'flag' and "challenges"."minimum_points" between 1 and "challenges"."points" and "challenges"."decay" between 1 and 1000000));--> statement-breakpoint
-- A flag solve counts the challenge's value: its points, or, for dynamic points, CTFd's curve in integers,
-- points − ⌊(points − minimum) × (solves − 1)² / decay²⌋, at least the minimum, where solves is the number of
-- teams that solved it (app/modules/flags/decay.ts is the same rule in TypeScript; a test holds them equal).
CREATE OR REPLACE VIEW "team_answers" AS
	SELECT s.team_id, s.challenge_id, s.user_id, s.rejected, s.score_centi, s.scored_at FROM "submissions" s
	UNION ALL
	SELECT f.team_id, f.challenge_id, f.user_id, false AS rejected,
		(CASE WHEN c.scoring = 'dynamic' THEN greatest(c.minimum_points::bigint, c.points - (c.points - c.minimum_points)::bigint
			* (SELECT (count(*) - 1) * (count(*) - 1) FROM "flag_solves" x WHERE x.challenge_id = f.challenge_id) / (c.decay::bigint * c.decay))
		ELSE c.points END * 100)::integer AS score_centi,
		f.solved_at AS scored_at
	FROM "flag_solves" f INNER JOIN "challenges" c ON c.id = f.challenge_id;
