-- Own tracks deleted before this migration are known by the saved sounds that still name them: each is
-- recorded for the person who saved it (a save only ever names the saver's own tracks), with its name in
-- the sound last changed, so that their Save or a copy of their own share leaves it out as it does one
-- deleted from now on (docs/product/api.md#saved-and-shared).
CREATE TABLE "removed_own_tracks" (
	"id" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "removed_own_tracks" ADD CONSTRAINT "removed_own_tracks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "removed_own_tracks_user_idx" ON "removed_own_tracks" USING btree ("user_id");--> statement-breakpoint
INSERT INTO "removed_own_tracks" ("id", "user_id", "name")
SELECT DISTINCT ON ("gone"."track_id") "gone"."track_id", "gone"."user_id", "gone"."name"
FROM (
  SELECT
    CASE WHEN "layer"->>'track_id' ~ '^[1-9][0-9]{0,8}$' THEN ("layer"->>'track_id')::integer END AS "track_id",
    "saved"."user_id",
    "layer"->>'name' AS "name",
    "saved"."updated_at"
  FROM "saved_subliminals" AS "saved",
    jsonb_array_elements(CASE WHEN jsonb_typeof("saved"."sound"->'layers') = 'array' THEN "saved"."sound"->'layers' ELSE '[]'::jsonb END) AS "layer"
  WHERE "layer"->>'kind' = 'own_track' AND jsonb_typeof("layer"->'name') = 'string'
) AS "gone"
WHERE "gone"."track_id" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "own_tracks" WHERE "own_tracks"."id" = "gone"."track_id")
ORDER BY "gone"."track_id", "gone"."updated_at" DESC
ON CONFLICT DO NOTHING;
