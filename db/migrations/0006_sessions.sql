CREATE TABLE "sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
-- An ended session must be refused at once by every web process, which remember sessions (decision 015):
-- a statement that deleted session rows tells them on the channel of migration 0005. Only when it deleted
-- some: a logout replayed with a long-dead cookie must not make every process forget everything.
-- Touching last_used_at does not fire.
CREATE OR REPLACE FUNCTION gk_notify_sessions_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM ended) THEN
    PERFORM pg_notify('gk_callers_changed', TG_TABLE_NAME);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_callers_changed AFTER DELETE ON sessions REFERENCING OLD TABLE AS ended
  FOR EACH STATEMENT EXECUTE FUNCTION gk_notify_sessions_ended();
--> statement-breakpoint
CREATE TRIGGER sessions_truncated_callers_changed AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION gk_notify_callers_changed();
