-- An audio item's name is unique within its library as a reader tells it apart, as the library's category names are
-- (0031): what is drawn, whatever its case, so "Calm" and "Ca\u2060lm" (a word joiner inside) are one name
-- (docs/decisions/091-the-rest-of-a-staff-library-kept-apart-and-not-saved-over.md). Names that became one are
-- numbered as 0031 numbered categories': of each such set in a library the oldest keeps its name and each later one
-- takes the first number that makes it free, shortened to stay within 200 characters (UTF-16 code units, as 0019
-- counted them; within the contract's 200 code points), trailing spaces trimmed. Nothing is deleted. A program's
-- track layer names its track by library and exact name: one naming a renamed item is renamed with it, so it still
-- plays that track.
DO $$
DECLARE
  item record;
  suffix text;
  renamed text;
  attempt integer;
BEGIN
  FOR item IN
    SELECT "id", "kind", "name" FROM "audio_items"
    WHERE EXISTS (SELECT 1 FROM "audio_items" AS "older" WHERE "older"."kind" = "audio_items"."kind" AND lower(regexp_replace("older"."name", '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')) = lower(regexp_replace("audio_items"."name", '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')) AND "older"."id" < "audio_items"."id")
    ORDER BY "id"
  LOOP
    attempt := 2;
    LOOP
      suffix := ' (' || attempt || ')';
      renamed := left(item."name", 200 - length(suffix));
      WHILE length(renamed || suffix) + length(regexp_replace(renamed || suffix, '[^\U00010000-\U0010FFFF]', '', 'g')) > 200 LOOP
        renamed := left(renamed, -1);
      END LOOP;
      renamed := rtrim(renamed) || suffix;
      EXIT WHEN NOT EXISTS (
        SELECT 1 FROM "audio_items"
        WHERE "kind" = item."kind" AND lower(regexp_replace("name", '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')) = lower(regexp_replace(renamed, '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')) AND "id" <> item."id"
      );
      attempt := attempt + 1;
    END LOOP;
    UPDATE "audio_items" SET "name" = renamed WHERE "id" = item."id";
    UPDATE "program_days" SET "layers" = (
      SELECT jsonb_agg(
        CASE WHEN "layer" ->> 'kind' = 'track' AND "layer" ->> 'audio_kind' = item."kind" AND "layer" ->> 'name' = item."name"
          THEN jsonb_set("layer", '{name}', to_jsonb(renamed)) ELSE "layer" END
        ORDER BY "at")
      FROM jsonb_array_elements("program_days"."layers") WITH ORDINALITY AS "elements"("layer", "at")
    )
    WHERE jsonb_typeof("layers") = 'array'
      AND "layers" @> jsonb_build_array(jsonb_build_object('kind', 'track', 'audio_kind', item."kind", 'name', item."name"));
  END LOOP;
END $$;--> statement-breakpoint
DROP INDEX "audio_items_kind_lower_name_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "audio_items_kind_displayed_name_unique" ON "audio_items" USING btree ("kind",lower(regexp_replace("name", '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')));