-- A flag solve is solved by definition, whatever a dynamic challenge's value has fallen to: the view says which
-- rows are flag solves (`flag`), and the solved rule (app/modules/scoring/rules.ts `isSolved`, and the
-- prerequisites' SQL) reads it instead of comparing a fallen value with 65 % of the starting points.
CREATE OR REPLACE VIEW "team_answers" AS
	SELECT s.team_id, s.challenge_id, s.user_id, s.rejected, s.score_centi, s.scored_at, false AS flag FROM "submissions" s
	UNION ALL
	SELECT f.team_id, f.challenge_id, f.user_id, false AS rejected,
		(CASE WHEN c.scoring = 'dynamic' THEN greatest(c.minimum_points::bigint, c.points - (c.points - c.minimum_points)::bigint
			* (SELECT (count(*) - 1) * (count(*) - 1) FROM "flag_solves" x WHERE x.challenge_id = f.challenge_id) / (c.decay::bigint * c.decay))
		ELSE c.points END * 100)::integer AS score_centi,
		f.solved_at AS scored_at, true AS flag
	FROM "flag_solves" f INNER JOIN "challenges" c ON c.id = f.challenge_id;
