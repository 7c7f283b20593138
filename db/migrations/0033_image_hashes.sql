CREATE TABLE "image_bands" (
	"challenge_id" integer NOT NULL,
	"key" integer NOT NULL,
	"print_id" integer NOT NULL,
	CONSTRAINT "image_bands_challenge_id_key_print_id_pk" PRIMARY KEY("challenge_id","key","print_id")
);
--> statement-breakpoint
ALTER TABLE "submission_prints" ADD COLUMN "image_hash" bigint;--> statement-breakpoint
ALTER TABLE "image_bands" ADD CONSTRAINT "image_bands_print_id_submission_prints_id_fk" FOREIGN KEY ("print_id") REFERENCES "public"."submission_prints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "image_bands_print_idx" ON "image_bands" USING btree ("print_id");