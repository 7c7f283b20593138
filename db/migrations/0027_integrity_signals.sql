CREATE TABLE "challenge_starters" (
	"challenge_id" integer PRIMARY KEY NOT NULL,
	"text" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrity_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"similarity_percent" smallint DEFAULT 50 NOT NULL,
	"devices_per_account" smallint DEFAULT 4 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integrity_settings_single_row" CHECK ("integrity_settings"."id" = 1),
	CONSTRAINT "integrity_settings_similarity" CHECK ("integrity_settings"."similarity_percent" between 10 and 100),
	CONSTRAINT "integrity_settings_devices" CHECK ("integrity_settings"."devices_per_account" between 2 and 100)
);
--> statement-breakpoint
CREATE TABLE "integrity_signals" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"challenge_id" integer,
	"team_id" integer NOT NULL,
	"other_team_id" integer,
	"print_id" integer,
	"other_print_id" integer,
	"similarity" smallint NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"source_key" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"reason" text,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"award_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "print_bands" (
	"challenge_id" integer NOT NULL,
	"key" integer NOT NULL,
	"print_id" integer NOT NULL,
	CONSTRAINT "print_bands_challenge_id_key_print_id_pk" PRIMARY KEY("challenge_id","key","print_id")
);
--> statement-breakpoint
CREATE TABLE "sign_ins" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"team_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"device" text NOT NULL,
	"address" text
);
--> statement-breakpoint
CREATE TABLE "submission_prints" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"challenge_id" integer NOT NULL,
	"version_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"content_hash" text,
	"shingles" integer DEFAULT 0 NOT NULL,
	"signature" integer[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "challenge_starters" ADD CONSTRAINT "challenge_starters_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrity_signals" ADD CONSTRAINT "integrity_signals_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrity_signals" ADD CONSTRAINT "integrity_signals_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrity_signals" ADD CONSTRAINT "integrity_signals_other_team_id_teams_id_fk" FOREIGN KEY ("other_team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrity_signals" ADD CONSTRAINT "integrity_signals_print_id_submission_prints_id_fk" FOREIGN KEY ("print_id") REFERENCES "public"."submission_prints"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrity_signals" ADD CONSTRAINT "integrity_signals_other_print_id_submission_prints_id_fk" FOREIGN KEY ("other_print_id") REFERENCES "public"."submission_prints"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrity_signals" ADD CONSTRAINT "integrity_signals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrity_signals" ADD CONSTRAINT "integrity_signals_award_id_awards_id_fk" FOREIGN KEY ("award_id") REFERENCES "public"."awards"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_bands" ADD CONSTRAINT "print_bands_print_id_submission_prints_id_fk" FOREIGN KEY ("print_id") REFERENCES "public"."submission_prints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_ins" ADD CONSTRAINT "sign_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_ins" ADD CONSTRAINT "sign_ins_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_prints" ADD CONSTRAINT "submission_prints_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_prints" ADD CONSTRAINT "submission_prints_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_prints" ADD CONSTRAINT "submission_prints_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integrity_signals_source_key" ON "integrity_signals" USING btree ("source_key");--> statement-breakpoint
CREATE INDEX "integrity_signals_status_idx" ON "integrity_signals" USING btree ("status","similarity");--> statement-breakpoint
CREATE INDEX "integrity_signals_print_idx" ON "integrity_signals" USING btree ("print_id");--> statement-breakpoint
CREATE INDEX "integrity_signals_other_print_idx" ON "integrity_signals" USING btree ("other_print_id");--> statement-breakpoint
CREATE INDEX "print_bands_print_idx" ON "print_bands" USING btree ("print_id");--> statement-breakpoint
CREATE INDEX "sign_ins_device_idx" ON "sign_ins" USING btree ("device","at");--> statement-breakpoint
CREATE INDEX "sign_ins_user_idx" ON "sign_ins" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "sign_ins_at_idx" ON "sign_ins" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "submission_prints_version_key" ON "submission_prints" USING btree ("submission_id","version_at","source");--> statement-breakpoint
CREATE INDEX "submission_prints_hash_idx" ON "submission_prints" USING btree ("challenge_id","content_hash");