ALTER TABLE "event_settings" ADD COLUMN "first_blood_webhook_url" text;--> statement-breakpoint
ALTER TABLE "event_settings" ADD COLUMN "first_blood_webhook_format" text DEFAULT 'discord' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_settings" ADD COLUMN "first_blood_webhook_secret" text;--> statement-breakpoint
ALTER TABLE "event_settings" ADD CONSTRAINT "event_settings_first_blood_webhook_format" CHECK ("event_settings"."first_blood_webhook_format" in ('discord', 'slack'));