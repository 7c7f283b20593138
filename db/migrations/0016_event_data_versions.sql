-- What every participant's pages read alike (gates, challenges, the event's settings, announcements,
-- meals) is remembered by each web process per version (app/modules/event-data/shared.server.ts). Every
-- statement that changes one of these tables moves its version in the same transaction, whoever wrote (a
-- page, the API, an import, an operator's psql): statement-level, so a bulk import is one step. A page reads
-- the versions with the viewer's own data (one statement) and re-reads a table whose version moved.
CREATE TABLE event_data_versions (
  table_name text PRIMARY KEY,
  version bigint NOT NULL DEFAULT 0
);
--> statement-breakpoint
INSERT INTO event_data_versions (table_name) VALUES ('announcements'), ('challenges'), ('event_settings'), ('gates'), ('meals');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gk_bump_event_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE event_data_versions SET version = version + 1 WHERE table_name = TG_TABLE_NAME;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER gates_event_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON gates
  FOR EACH STATEMENT EXECUTE FUNCTION gk_bump_event_data_version();
--> statement-breakpoint
CREATE TRIGGER challenges_event_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON challenges
  FOR EACH STATEMENT EXECUTE FUNCTION gk_bump_event_data_version();
--> statement-breakpoint
CREATE TRIGGER event_settings_event_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON event_settings
  FOR EACH STATEMENT EXECUTE FUNCTION gk_bump_event_data_version();
--> statement-breakpoint
CREATE TRIGGER announcements_event_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON announcements
  FOR EACH STATEMENT EXECUTE FUNCTION gk_bump_event_data_version();
--> statement-breakpoint
CREATE TRIGGER meals_event_data_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON meals
  FOR EACH STATEMENT EXECUTE FUNCTION gk_bump_event_data_version();
