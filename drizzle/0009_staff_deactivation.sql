ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
-- Accounts staff deactivated before this column existed: inactive, yet written to since signup (activation,
-- deactivation and every other update set updated_at; a never-activated account is never written to after
-- its insert, whose created_at and updated_at are the one now()) or logged in once.
UPDATE "users" SET "deactivated_at" = "updated_at" WHERE "is_active" = false AND ("last_login" IS NOT NULL OR "updated_at" > "created_at");
