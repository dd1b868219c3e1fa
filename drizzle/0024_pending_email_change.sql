-- An e-mail change waiting for its link is kept with the account, and its time signed into the link, so the profile
-- shows it and a cancel or a newer request refuses the older link (docs/decisions/061-…). Nothing to fill: a link
-- mailed before this has no waiting change to match and is refused; the person asks again from the profile.
ALTER TABLE "users" ADD COLUMN "pending_email" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_email_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_pending_email_check" CHECK (("users"."pending_email" is null) = ("users"."pending_email_at" is null));