-- The same file uploaded twice to one person's music became one track: of each such set the oldest stays,
-- the saved subliminals that played a newer one play it instead (by its name), and the newer rows go. They
-- named the very file it names (own-music/<user id>/<sha-256>.<ext>), so no file goes.
WITH "ranked" AS (
  SELECT "id", "user_id",
    first_value("id") OVER "same_file" AS "kept_id",
    first_value("name") OVER "same_file" AS "kept_name"
  FROM "own_tracks"
  WINDOW "same_file" AS (PARTITION BY "user_id", "audio_file" ORDER BY "created_at", "id")
), "merged" AS (
  SELECT * FROM "ranked" WHERE "id" <> "kept_id"
)
UPDATE "saved_subliminals" AS "s" SET "sound" = jsonb_set("s"."sound", '{layers}', (
  SELECT jsonb_agg(coalesce(
    (SELECT "l"."layer" || jsonb_build_object('track_id', "m"."kept_id", 'name', "m"."kept_name") FROM "merged" AS "m"
      WHERE "l"."layer" ->> 'kind' = 'own_track' AND "l"."layer" ->> 'track_id' = "m"."id"::text AND "m"."user_id" = "s"."user_id"),
    "l"."layer") ORDER BY "l"."position")
  FROM jsonb_array_elements("s"."sound" -> 'layers') WITH ORDINALITY AS "l"("layer", "position")))
WHERE jsonb_typeof("s"."sound" -> 'layers') = 'array' AND EXISTS (
  SELECT 1 FROM jsonb_array_elements("s"."sound" -> 'layers') AS "l"("layer"), "merged" AS "m"
  WHERE "l"."layer" ->> 'kind' = 'own_track' AND "l"."layer" ->> 'track_id' = "m"."id"::text AND "m"."user_id" = "s"."user_id");--> statement-breakpoint
DELETE FROM "own_tracks" WHERE EXISTS (SELECT 1 FROM "own_tracks" AS "older" WHERE "older"."user_id" = "own_tracks"."user_id" AND "older"."audio_file" = "own_tracks"."audio_file" AND ("older"."created_at", "older"."id") < ("own_tracks"."created_at", "own_tracks"."id"));--> statement-breakpoint
DROP INDEX "own_tracks_user_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "own_tracks_user_file_unique" ON "own_tracks" USING btree ("user_id","audio_file");
