ALTER TABLE "announcements" ADD COLUMN "title_ar" text;--> statement-breakpoint
ALTER TABLE "announcements" ADD COLUMN "content_ar" text;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "title_ar" text;--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "description_ar" text;--> statement-breakpoint
ALTER TABLE "gates" ADD COLUMN "title_ar" text;--> statement-breakpoint
ALTER TABLE "gates" ADD COLUMN "description_ar" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "message_ar" text;