-- The library's category names are unique as a reader tells them apart, as a person's own are (0022): what is drawn,
-- whatever its case, so "Calm" and "Ca\u2060lm" (a word joiner inside) are one name (docs/decisions/084-…). Names
-- that became one are numbered as 0022 numbered a person's: of each such set the oldest keeps its name and each later
-- one takes the first number that makes it free, shortened to stay within 100 characters (UTF-16 code units, as 0017
-- counted them; within the contract's 100 code points), trailing spaces trimmed. Nothing is deleted.
DO $$
DECLARE
  category record;
  suffix text;
  renamed text;
  attempt integer;
BEGIN
  FOR category IN
    SELECT "id", "name" FROM "message_categories"
    WHERE EXISTS (SELECT 1 FROM "message_categories" AS "older" WHERE lower(regexp_replace("older"."name", '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')) = lower(regexp_replace("message_categories"."name", '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')) AND "older"."id" < "message_categories"."id")
    ORDER BY "id"
  LOOP
    attempt := 2;
    LOOP
      suffix := ' (' || attempt || ')';
      renamed := left(category."name", 100 - length(suffix));
      WHILE length(renamed || suffix) + length(regexp_replace(renamed || suffix, '[^\U00010000-\U0010FFFF]', '', 'g')) > 100 LOOP
        renamed := left(renamed, -1);
      END LOOP;
      renamed := rtrim(renamed) || suffix;
      EXIT WHEN NOT EXISTS (
        SELECT 1 FROM "message_categories"
        WHERE lower(regexp_replace("name", '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')) = lower(regexp_replace(renamed, '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')) AND "id" <> category."id"
      );
      attempt := attempt + 1;
    END LOOP;
    UPDATE "message_categories" SET "name" = renamed WHERE "id" = category."id";
  END LOOP;
END $$;--> statement-breakpoint
DROP INDEX "message_categories_lower_name_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "message_categories_displayed_name_unique" ON "message_categories" USING btree (lower(regexp_replace("name", '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]', '', 'g')));