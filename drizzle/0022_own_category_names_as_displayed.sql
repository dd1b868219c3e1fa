-- A person's own category names are unique as a reader tells them apart: what is drawn, whatever its case, so
-- "Calm" and "\u200bCalm" (a zero-width space before it) are one name (docs/decisions/063-…). Names that became
-- one are renumbered as 0021 did: of each such set the oldest keeps its name and each later one takes the first
-- number that makes it free, shortened to stay within 80 characters (UTF-16 code units, as 0021 counted them;
-- within the contract's 80 code points), trailing spaces trimmed. Nothing is deleted.
DO $$
DECLARE
  category record;
  suffix text;
  renamed text;
  attempt integer;
BEGIN
  FOR category IN
    SELECT "id", "user_id", "name" FROM "own_categories"
    WHERE EXISTS (SELECT 1 FROM "own_categories" AS "older" WHERE "older"."user_id" = "own_categories"."user_id" AND lower(regexp_replace("older"."name", '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')) = lower(regexp_replace("own_categories"."name", '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')) AND "older"."id" < "own_categories"."id")
    ORDER BY "id"
  LOOP
    attempt := 2;
    LOOP
      suffix := ' (' || attempt || ')';
      renamed := left(category."name", 80 - length(suffix));
      WHILE length(renamed || suffix) + length(regexp_replace(renamed || suffix, '[^\U00010000-\U0010FFFF]', '', 'g')) > 80 LOOP
        renamed := left(renamed, -1);
      END LOOP;
      renamed := rtrim(renamed) || suffix;
      EXIT WHEN NOT EXISTS (
        SELECT 1 FROM "own_categories"
        WHERE "user_id" = category."user_id" AND lower(regexp_replace("name", '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')) = lower(regexp_replace(renamed, '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')) AND "id" <> category."id"
      );
      attempt := attempt + 1;
    END LOOP;
    UPDATE "own_categories" SET "name" = renamed WHERE "id" = category."id";
  END LOOP;
END $$;--> statement-breakpoint
DROP INDEX "own_categories_user_lower_name_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "own_categories_user_displayed_name_unique" ON "own_categories" USING btree ("user_id",lower(regexp_replace("name", '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')));