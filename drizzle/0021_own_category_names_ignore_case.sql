-- A person's own category names that differ only in case became one name, as the library's did (0015): of
-- each such set the oldest keeps its name and each later one takes the first number that makes it free among
-- that person's names, whatever their case: "calm (2)", then "Calm (3)" (docs/decisions/055-…). The name is
-- first shortened so that it stays within the 80 characters of an own category's name, counted as the contract
-- counts them (UTF-16 code units: a character beyond U+FFFF counts twice), trailing spaces trimmed. Nothing
-- is deleted: the person's messages stay in the category they were in.
DO $$
DECLARE
  category record;
  suffix text;
  renamed text;
  attempt integer;
BEGIN
  FOR category IN
    SELECT "id", "user_id", "name" FROM "own_categories"
    WHERE EXISTS (SELECT 1 FROM "own_categories" AS "older" WHERE "older"."user_id" = "own_categories"."user_id" AND lower("older"."name") = lower("own_categories"."name") AND "older"."id" < "own_categories"."id")
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
        WHERE "user_id" = category."user_id" AND lower("name") = lower(renamed) AND "id" <> category."id"
      );
      attempt := attempt + 1;
    END LOOP;
    UPDATE "own_categories" SET "name" = renamed WHERE "id" = category."id";
  END LOOP;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX "own_categories_user_lower_name_unique" ON "own_categories" USING btree ("user_id",lower("name"));