ALTER TABLE "code_challenges" ADD COLUMN "checker_language" text;--> statement-breakpoint
ALTER TABLE "code_challenges" ADD COLUMN "checker_source" text;--> statement-breakpoint
ALTER TABLE "code_challenges" ADD COLUMN "checker_name" text;--> statement-breakpoint
ALTER TABLE "code_challenges" ADD COLUMN "checker_hash" text;--> statement-breakpoint
ALTER TABLE "code_challenges" ADD COLUMN "checker_state" text;--> statement-breakpoint
ALTER TABLE "code_challenges" ADD COLUMN "checker_message" text;--> statement-breakpoint
ALTER TABLE "code_challenges" ADD COLUMN "checker_problem" text;--> statement-breakpoint
ALTER TABLE "code_challenges" ADD COLUMN "generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "code_runs" ADD COLUMN "compile_problem" text;--> statement-breakpoint
ALTER TABLE "code_challenges" ADD CONSTRAINT "code_challenges_checker_size" CHECK (octet_length("code_challenges"."checker_source") <= 65536);