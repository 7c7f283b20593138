CREATE TABLE "challenge_starter_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"challenge_id" integer NOT NULL,
	"name" text NOT NULL,
	"file_key" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "challenge_starter_files_file_key_unique" UNIQUE("file_key")
);
--> statement-breakpoint
ALTER TABLE "challenge_starter_files" ADD CONSTRAINT "challenge_starter_files_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "challenge_starter_files_challenge_idx" ON "challenge_starter_files" USING btree ("challenge_id","id");