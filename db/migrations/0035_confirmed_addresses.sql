ALTER TABLE "event_settings" ADD COLUMN "participant_passwords" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_confirmed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The addresses accounts have now: confirmed unless a /register form may have typed it (a registration holds the
-- same address) and no link mailed to it was used since. Conservative: an admin's address that a registration
-- also holds stays unconfirmed until the admin saves it again or its person uses a mailed link.
UPDATE "users" u SET "email_confirmed" = true
WHERE u."email" IS NOT NULL
  AND (
    NOT EXISTS (SELECT 1 FROM "registrations" r WHERE lower(r."email") = lower(u."email"))
    OR EXISTS (
      SELECT 1 FROM "password_links" l JOIN "mails" m ON m."id" = l."mail_id"
      WHERE l."user_id" = u."id" AND l."used_at" IS NOT NULL AND lower(m."to_address") = lower(u."email")
    )
  );
