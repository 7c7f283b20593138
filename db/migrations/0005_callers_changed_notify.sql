-- Who a caller is (a user's name, role and team, the team's name, whether a token still works) is
-- remembered for a while by the web processes' scoreboard feed (decision 011). Every statement that
-- changes any of it tells them at commit, on the channel they LISTEN to, so they forget at once.
-- Statement-level: a bulk import of 3,000 users is one notification. Columns that change often and
-- do not matter here (a token's last use, a user's last read of the announcements) do not fire.
CREATE OR REPLACE FUNCTION gk_notify_callers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gk_callers_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_callers_changed AFTER INSERT OR DELETE OR UPDATE OF name, role, team_id ON users
  FOR EACH STATEMENT EXECUTE FUNCTION gk_notify_callers_changed();
--> statement-breakpoint
CREATE TRIGGER users_truncated_callers_changed AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION gk_notify_callers_changed();
--> statement-breakpoint
CREATE TRIGGER teams_callers_changed AFTER DELETE OR UPDATE OF name ON teams
  FOR EACH STATEMENT EXECUTE FUNCTION gk_notify_callers_changed();
--> statement-breakpoint
CREATE TRIGGER api_tokens_callers_changed AFTER DELETE OR UPDATE OF revoked_at, user_id ON api_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION gk_notify_callers_changed();
