-- Names that differ only in case became one name: of each such set in a library the oldest item keeps its
-- name and the others take their id after it ("calm (12)"), so no item is lost and staff can rename them.
-- A name is first shortened so that it stays within the 200 characters of a name, counted as the contract
-- counts them (UTF-16 code units: a character beyond U+FFFF counts twice), trailing spaces trimmed; should the
-- new name be another item's of the library already, whatever its case, the suffix numbers it on
-- ("calm (12-2)"), so the unique index below can be made. (As first released this appended the id alone:
-- a long name passed the limit, and a "calm (12)" already there stopped the migration; 0019 shortens what
-- that left.)
DO $$
DECLARE
  item record;
  suffix text;
  renamed text;
  attempt integer;
BEGIN
  FOR item IN
    SELECT "id", "kind", "name" FROM "audio_items"
    WHERE EXISTS (SELECT 1 FROM "audio_items" AS "older" WHERE "older"."kind" = "audio_items"."kind" AND lower("older"."name") = lower("audio_items"."name") AND "older"."id" < "audio_items"."id")
    ORDER BY "id"
  LOOP
    suffix := ' (' || item."id" || ')';
    attempt := 1;
    LOOP
      renamed := left(item."name", 200 - length(suffix));
      WHILE length(renamed || suffix) + length(regexp_replace(renamed || suffix, '[^\U00010000-\U0010FFFF]', '', 'g')) > 200 LOOP
        renamed := left(renamed, -1);
      END LOOP;
      renamed := rtrim(renamed) || suffix;
      EXIT WHEN NOT EXISTS (
        SELECT 1 FROM "audio_items"
        WHERE "kind" = item."kind" AND lower("name") = lower(renamed) AND "id" <> item."id"
      );
      attempt := attempt + 1;
      suffix := ' (' || item."id" || '-' || attempt || ')';
    END LOOP;
    UPDATE "audio_items" SET "name" = renamed WHERE "id" = item."id";
  END LOOP;
END $$;--> statement-breakpoint
DROP INDEX "audio_items_kind_name_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "audio_items_kind_lower_name_unique" ON "audio_items" USING btree ("kind",lower("name"));
