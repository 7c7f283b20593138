-- What clients were last told of each team (app/modules/standings/shown.ts): the standings job publishes
-- `teams:update` only when what it would publish differs. Null until the next recompute or rebuild (then
-- the job publishes, as before).
ALTER TABLE "standings" ADD COLUMN "shown" text;
