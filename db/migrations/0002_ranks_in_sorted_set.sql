DROP INDEX "standings_rank_idx";--> statement-breakpoint
ALTER TABLE "standings" DROP COLUMN "rank";