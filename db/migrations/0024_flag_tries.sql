CREATE TABLE "flag_solve_counts" (
	"challenge_id" integer PRIMARY KEY NOT NULL,
	"solves" integer NOT NULL,
	"recomputed" integer DEFAULT 0 NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flag_tries" (
	"team_id" integer NOT NULL,
	"challenge_id" integer NOT NULL,
	"wrong" integer DEFAULT 0 NOT NULL,
	"recent" timestamp with time zone[] DEFAULT '{}' NOT NULL,
	"solved_at" timestamp with time zone,
	CONSTRAINT "flag_tries_team_id_challenge_id_pk" PRIMARY KEY("team_id","challenge_id")
);
--> statement-breakpoint
ALTER TABLE "flag_solve_counts" ADD CONSTRAINT "flag_solve_counts_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_tries" ADD CONSTRAINT "flag_tries_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flag_tries" ADD CONSTRAINT "flag_tries_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flag_tries_challenge_idx" ON "flag_tries" USING btree ("challenge_id");--> statement-breakpoint
-- The wait rule in one place (docs/domain.md "Guessing has a price"): when a team may send its next wrong
-- answer to a challenge, from its counted wrong answers, their latest times (newest first) and the limit a
-- minute; NULL: at once. `lim` wrong answers fit in a window of one minute; the window doubles with every
-- further `lim` of them, to 32 minutes at most. The verdict's statement asks it under the row's lock.
CREATE FUNCTION gk_flag_next_guess_at(wrong integer, recent timestamptz[], lim integer) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN wrong < lim OR coalesce(cardinality(recent), 0) < lim THEN NULL
    ELSE recent[lim] + make_interval(secs => 60 * power(2, least(greatest(wrong / lim - 1, 0), 5))) END
$$;
--> statement-breakpoint
-- A change to the event's data is also said on the callers' channel at commit ("event_data:<table>"): a web
-- process that remembers a flag challenge, or a team's wait on it, forgets it at once (the version still decides).
CREATE OR REPLACE FUNCTION gk_bump_event_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE event_data_versions SET version = version + 1 WHERE table_name = TG_TABLE_NAME;
  PERFORM pg_notify('gk_callers_changed', 'event_data:' || TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Answers and prerequisites are part of a challenge as the verdict reads it: a change to them moves the
-- challenges' version (migration 0016), so every web process reads the challenge again.
CREATE OR REPLACE FUNCTION gk_bump_challenges_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE event_data_versions SET version = version + 1 WHERE table_name = 'challenges';
  PERFORM pg_notify('gk_callers_changed', 'event_data:challenges');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER challenge_flags_event_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON challenge_flags
  FOR EACH STATEMENT EXECUTE FUNCTION gk_bump_challenges_version();
--> statement-breakpoint
CREATE TRIGGER challenge_prerequisites_event_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON challenge_prerequisites
  FOR EACH STATEMENT EXECUTE FUNCTION gk_bump_challenges_version();
--> statement-breakpoint
-- A solve that goes (its team deleted) leaves the count: the count stays the number of solves, and a dynamic
-- challenge's solvers are to be recomputed again (their value rises back): the worker's sweep takes it.
CREATE FUNCTION gk_flag_solve_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE flag_solve_counts SET solves = solves - 1, recomputed = 0, changed_at = now() WHERE challenge_id = OLD.challenge_id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER flag_solves_count AFTER DELETE ON flag_solves FOR EACH ROW EXECUTE FUNCTION gk_flag_solve_gone();
--> statement-breakpoint
-- What earlier answers left: each team's count, latest times and solve; each challenge's solves.
INSERT INTO flag_tries (team_id, challenge_id, wrong, recent, solved_at)
SELECT k.team_id, k.challenge_id,
  (SELECT count(*) FROM flag_attempts a WHERE a.team_id = k.team_id AND a.challenge_id = k.challenge_id AND a.verdict = 'incorrect' AND a.counted),
  coalesce((SELECT array_agg(r.at ORDER BY r.at DESC) FROM (SELECT a.at FROM flag_attempts a
    WHERE a.team_id = k.team_id AND a.challenge_id = k.challenge_id AND a.verdict = 'incorrect' AND a.counted
    ORDER BY a.at DESC LIMIT coalesce(c.wrong_per_minute, s.flag_wrong_per_minute, 5)) r), '{}'),
  (SELECT f.solved_at FROM flag_solves f WHERE f.team_id = k.team_id AND f.challenge_id = k.challenge_id)
FROM (SELECT team_id, challenge_id FROM flag_attempts UNION SELECT team_id, challenge_id FROM flag_solves) k
INNER JOIN challenges c ON c.id = k.challenge_id
LEFT JOIN event_settings s ON s.id = 1;
--> statement-breakpoint
INSERT INTO flag_solve_counts (challenge_id, solves, recomputed) SELECT challenge_id, count(*), count(*) FROM flag_solves GROUP BY challenge_id;
