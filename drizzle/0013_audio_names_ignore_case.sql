-- Names that differ only in case became one name: of each such set in a library the oldest item keeps its
-- name and the others take their id after it ("calm (12)"), so no item is lost and staff can rename them.
UPDATE "audio_items" SET "name" = "name" || ' (' || "id" || ')' WHERE EXISTS (SELECT 1 FROM "audio_items" AS "older" WHERE "older"."kind" = "audio_items"."kind" AND lower("older"."name") = lower("audio_items"."name") AND "older"."id" < "audio_items"."id");--> statement-breakpoint
DROP INDEX "audio_items_kind_name_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "audio_items_kind_lower_name_unique" ON "audio_items" USING btree ("kind",lower("name"));
