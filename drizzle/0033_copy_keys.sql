-- A copy made from a share link keeps the key of the press that made it, so that the same press sent again (its
-- answer lost, a Try again) is answered with that copy and makes no other; one per key and person
-- (docs/decisions/148-an-own-track-is-named-as-ones-own-and-a-copy-is-made-once-a-press.md). Copies made before have none.
ALTER TABLE "own_categories" ADD COLUMN "copy_key" uuid;--> statement-breakpoint
ALTER TABLE "saved_subliminals" ADD COLUMN "copy_key" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "own_categories_user_copy_key_idx" ON "own_categories" USING btree ("user_id","copy_key");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_subliminals_user_copy_key_idx" ON "saved_subliminals" USING btree ("user_id","copy_key");