-- 0015 renamed the newer of category names that differed only in case by appending its id ("calm (12)"),
-- which pushed a name near the 100-character limit past it: the admin screen, the API and an import of the
-- export then refused the name. Each name over the limit keeps its id suffix (the one 0015 gave it, else
-- its own) and as much of its start as fits, trailing spaces trimmed. Characters are counted as the
-- contract counts them (UTF-16 code units: a character beyond U+FFFF counts twice). Should the shortened
-- name be another category's already, whatever its case, the suffix numbers it on ("calm (12-2)").
DO $$
DECLARE
  category record;
  base text;
  suffix text;
  shortened text;
  attempt integer;
BEGIN
  FOR category IN
    SELECT "id", "name" FROM "message_categories"
    WHERE length("name") + length(regexp_replace("name", '[^\U00010000-\U0010FFFF]', '', 'g')) > 100
    ORDER BY "id"
  LOOP
    suffix := ' (' || category."id" || ')';
    base := category."name";
    IF right(base, length(suffix)) = suffix THEN
      base := left(base, length(base) - length(suffix));
    END IF;
    attempt := 1;
    LOOP
      shortened := left(base, 100 - length(suffix));
      WHILE length(shortened || suffix) + length(regexp_replace(shortened || suffix, '[^\U00010000-\U0010FFFF]', '', 'g')) > 100 LOOP
        shortened := left(shortened, -1);
      END LOOP;
      shortened := rtrim(shortened) || suffix;
      EXIT WHEN NOT EXISTS (
        SELECT 1 FROM "message_categories"
        WHERE lower("name") = lower(shortened) AND "id" <> category."id"
      );
      attempt := attempt + 1;
      suffix := ' (' || category."id" || '-' || attempt || ')';
    END LOOP;
    UPDATE "message_categories" SET "name" = shortened WHERE "id" = category."id";
  END LOOP;
END $$;
