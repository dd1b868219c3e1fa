-- A seeded track is followed by its row, so that one staff renamed is still the seed's when its files go
-- missing (docs/decisions/009-starting-content-is-ours-and-seeded-at-start.md). The tracks recorded so far
-- are matched by the name the seed gave them; one renamed before this migration is not found, as before it.
ALTER TABLE "seeded_content" ADD COLUMN "audio_item_id" integer;--> statement-breakpoint
ALTER TABLE "seeded_content" ADD CONSTRAINT "seeded_content_audio_item_id_audio_items_id_fk" FOREIGN KEY ("audio_item_id") REFERENCES "public"."audio_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
UPDATE "seeded_content" SET "audio_item_id" = "audio_items"."id"
FROM "audio_items"
WHERE "seeded_content"."kind" = 'audio:' || "audio_items"."kind" AND "seeded_content"."key" = lower("audio_items"."name");
