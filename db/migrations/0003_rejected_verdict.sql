ALTER TABLE "submissions" ADD COLUMN "rejected" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "submissions" SET "rejected" = true WHERE "status" = 'rejected';
