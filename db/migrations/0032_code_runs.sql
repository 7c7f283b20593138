CREATE TYPE "public"."run_state" AS ENUM('queued', 'compiling', 'running', 'done');--> statement-breakpoint
CREATE TABLE "code_challenges" (
	"challenge_id" integer PRIMARY KEY NOT NULL,
	"languages" text[] NOT NULL,
	"time_limit_ms" integer DEFAULT 2000 NOT NULL,
	"memory_limit_mb" integer DEFAULT 256 NOT NULL,
	"comparator" text DEFAULT 'exact' NOT NULL,
	"tests_key" text,
	"tests_name" text,
	"subtasks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"total_share" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "code_challenges_time_limit_range" CHECK ("code_challenges"."time_limit_ms" between 100 and 20000),
	CONSTRAINT "code_challenges_memory_limit_range" CHECK ("code_challenges"."memory_limit_mb" between 16 and 1024),
	CONSTRAINT "code_challenges_total_share_positive" CHECK ("code_challenges"."total_share" is null or "code_challenges"."total_share" > 0)
);
--> statement-breakpoint
CREATE TABLE "code_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"challenge_id" integer NOT NULL,
	"user_id" integer,
	"language" text NOT NULL,
	"source" text NOT NULL,
	"state" "run_state" DEFAULT 'queued' NOT NULL,
	"verdict" text,
	"tests" jsonb,
	"passed_subtasks" text[] DEFAULT '{}'::text[] NOT NULL,
	"points_centi" integer,
	"compile_message" text,
	"test_index" integer,
	"test_count" integer,
	"failures" smallint DEFAULT 0 NOT NULL,
	"failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"alive_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "code_runs_source_size" CHECK (octet_length("code_runs"."source") <= 65536)
);
--> statement-breakpoint
ALTER TABLE "code_challenges" ADD CONSTRAINT "code_challenges_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_runs" ADD CONSTRAINT "code_runs_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_runs" ADD CONSTRAINT "code_runs_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_runs" ADD CONSTRAINT "code_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "code_runs_team_challenge_idx" ON "code_runs" USING btree ("team_id","challenge_id","id");--> statement-breakpoint
CREATE INDEX "code_runs_challenge_idx" ON "code_runs" USING btree ("challenge_id","id");--> statement-breakpoint
CREATE INDEX "code_runs_state_idx" ON "code_runs" USING btree ("state","id");--> statement-breakpoint
-- A code challenge's answer is the team's best of each subtask over all its judged runs (IOI style), reached at the
-- run that first passed the last of them to be passed (docs/domain.md "Code challenges"): the subtasks' shares over
-- the challenge's total share of its points, rounded half up in hundredths (app/modules/code/scoring.ts
-- `pointsCentiOfShares`, the same integer operations); judged like a submission (not a flag).
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
	) p INNER JOIN "prediction_challenges" pc ON pc.challenge_id = p.challenge_id INNER JOIN "challenges" c ON c.id = p.challenge_id
	UNION ALL
	SELECT e.team_id, e.challenge_id, e.user_id, false AS rejected,
		((2 * c.points::bigint * 100 * e.earned + cc.total_share) / (2 * cc.total_share))::integer AS score_centi,
		e.scored_at, false AS flag
	FROM (
		SELECT f.team_id, f.challenge_id, (array_agg(f.user_id ORDER BY f.first_at DESC, f.run_id DESC))[1] AS user_id,
			sum(s.share)::bigint AS earned, max(f.first_at) AS scored_at
		FROM (
			SELECT DISTINCT ON (r.team_id, r.challenge_id, p.name) r.team_id, r.challenge_id, r.user_id, r.id AS run_id, p.name, r.created_at AS first_at
			-- Every run's last judgement: a run queued again (a rejudge) keeps it until the new one replaces it.
			FROM "code_runs" r CROSS JOIN LATERAL unnest(r.passed_subtasks) AS p(name)
			ORDER BY r.team_id, r.challenge_id, p.name, r.created_at, r.id
		) f
		INNER JOIN "code_challenges" sc ON sc.challenge_id = f.challenge_id
		CROSS JOIN LATERAL jsonb_to_recordset(sc.subtasks) AS s(name text, share integer)
		-- A subtask worth nothing (the samples) earns no points and dates nothing: passing it later never moves the
		-- team's tie-break time.
		WHERE s.name = f.name AND s.share > 0
		GROUP BY f.team_id, f.challenge_id
	) e INNER JOIN "code_challenges" cc ON cc.challenge_id = e.challenge_id INNER JOIN "challenges" c ON c.id = e.challenge_id
	WHERE cc.total_share > 0;
