CREATE TABLE "challenge_prerequisites" (
	"challenge_id" integer NOT NULL,
	"requires_id" integer NOT NULL,
	CONSTRAINT "challenge_prerequisites_challenge_id_requires_id_pk" PRIMARY KEY("challenge_id","requires_id"),
	CONSTRAINT "challenge_prerequisites_not_itself" CHECK ("challenge_prerequisites"."challenge_id" <> "challenge_prerequisites"."requires_id")
);
--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "release_after_minutes" integer;--> statement-breakpoint
ALTER TABLE "challenge_prerequisites" ADD CONSTRAINT "challenge_prerequisites_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "challenge_prerequisites" ADD CONSTRAINT "challenge_prerequisites_requires_id_challenges_id_fk" FOREIGN KEY ("requires_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_release_after_range" CHECK ("challenges"."release_after_minutes" is null or "challenges"."release_after_minutes" between 1 and 10080);