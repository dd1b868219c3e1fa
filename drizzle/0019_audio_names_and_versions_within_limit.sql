-- 0013 and 0014, as first released, renamed the newer of audio names (and installer versions) that differed
-- only in case by appending the id ("calm (12)"), which pushed a name near the 200-character limit (a version
-- near the 50-character one) past it: the admin screen and the API then refused to save it as it was. As 0017
-- did for category names, each one over its limit keeps its id suffix (the one 0013/0014 gave it, else its
-- own) and as much of its start as fits, trailing spaces trimmed, counted as the contract counts (UTF-16 code
-- units); should that be another item's of the same library (installer of the same type) already, whatever
-- its case, the suffix numbers it on ("calm (12-2)"). A database that runs today's 0013 and 0014 has none.
DO $$
DECLARE
  item record;
  base text;
  suffix text;
  shortened text;
  attempt integer;
BEGIN
  FOR item IN
    SELECT "id", "kind", "name" FROM "audio_items"
    WHERE length("name") + length(regexp_replace("name", '[^\U00010000-\U0010FFFF]', '', 'g')) > 200
    ORDER BY "id"
  LOOP
    suffix := ' (' || item."id" || ')';
    base := item."name";
    IF right(base, length(suffix)) = suffix THEN
      base := left(base, length(base) - length(suffix));
    END IF;
    attempt := 1;
    LOOP
      shortened := left(base, 200 - length(suffix));
      WHILE length(shortened || suffix) + length(regexp_replace(shortened || suffix, '[^\U00010000-\U0010FFFF]', '', 'g')) > 200 LOOP
        shortened := left(shortened, -1);
      END LOOP;
      shortened := rtrim(shortened) || suffix;
      EXIT WHEN NOT EXISTS (
        SELECT 1 FROM "audio_items"
        WHERE "kind" = item."kind" AND lower("name") = lower(shortened) AND "id" <> item."id"
      );
      attempt := attempt + 1;
      suffix := ' (' || item."id" || '-' || attempt || ')';
    END LOOP;
    UPDATE "audio_items" SET "name" = shortened WHERE "id" = item."id";
  END LOOP;
END $$;--> statement-breakpoint
DO $$
DECLARE
  installer record;
  base text;
  suffix text;
  shortened text;
  attempt integer;
BEGIN
  FOR installer IN
    SELECT "id", "application_version", substring("application_file" from '[.][^./]*$') AS "type" FROM "desktop_applications"
    WHERE length("application_version") + length(regexp_replace("application_version", '[^\U00010000-\U0010FFFF]', '', 'g')) > 50
    ORDER BY "id"
  LOOP
    suffix := ' (' || installer."id" || ')';
    base := installer."application_version";
    IF right(base, length(suffix)) = suffix THEN
      base := left(base, length(base) - length(suffix));
    END IF;
    attempt := 1;
    LOOP
      shortened := left(base, 50 - length(suffix));
      WHILE length(shortened || suffix) + length(regexp_replace(shortened || suffix, '[^\U00010000-\U0010FFFF]', '', 'g')) > 50 LOOP
        shortened := left(shortened, -1);
      END LOOP;
      shortened := rtrim(shortened) || suffix;
      EXIT WHEN NOT EXISTS (
        SELECT 1 FROM "desktop_applications"
        WHERE lower("application_version") = lower(shortened)
          AND substring("application_file" from '[.][^./]*$') = installer."type"
          AND "id" <> installer."id"
      );
      attempt := attempt + 1;
      suffix := ' (' || installer."id" || '-' || attempt || ')';
    END LOOP;
    UPDATE "desktop_applications" SET "application_version" = shortened WHERE "id" = installer."id";
  END LOOP;
END $$;
