CREATE TABLE "submission_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"user_id" integer,
	"text" text,
	"file_key" text,
	"file_name" text,
	"file_size" integer,
	"file_type" text,
	"submitted_at" timestamp with time zone NOT NULL,
	"replaced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "revised_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Existing rows: a pending submission was last touched by its team (an update sets it pending); for the
-- others a judge acted last, so the team's last change is unknown: its creation, the earliest it can be.
UPDATE "submissions" SET "revised_at" = CASE WHEN "status" = 'pending' THEN "updated_at" ELSE "created_at" END;--> statement-breakpoint
ALTER TABLE "submission_versions" ADD CONSTRAINT "submission_versions_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_versions" ADD CONSTRAINT "submission_versions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "submission_versions_submission_idx" ON "submission_versions" USING btree ("submission_id","submitted_at");