-- Installers of one type uploaded twice for the same version (whatever its case): the oldest keeps its
-- version and the others take their id after it ("2.1.0 (7)"), so no file is lost and staff can delete them.
-- A version is first shortened so that it stays within the 50 characters of a version (UTF-16 code units, as
-- the contract counts them), trailing spaces trimmed; should the new version be another installer's of the
-- type already, whatever its case, the suffix numbers it on ("2.1.0 (7-2)"), so the unique index below can be
-- made. (As first released this appended the id alone: a long version passed the limit, and a "2.1.0 (7)"
-- already there stopped the migration; 0019 shortens what that left.)
DO $$
DECLARE
  installer record;
  suffix text;
  renamed text;
  attempt integer;
BEGIN
  FOR installer IN
    SELECT "id", "application_version", substring("application_file" from '[.][^./]*$') AS "type" FROM "desktop_applications"
    WHERE EXISTS (SELECT 1 FROM "desktop_applications" AS "older" WHERE lower("older"."application_version") = lower("desktop_applications"."application_version") AND substring("older"."application_file" from '[.][^./]*$') = substring("desktop_applications"."application_file" from '[.][^./]*$') AND "older"."id" < "desktop_applications"."id")
    ORDER BY "id"
  LOOP
    suffix := ' (' || installer."id" || ')';
    attempt := 1;
    LOOP
      renamed := left(installer."application_version", 50 - length(suffix));
      WHILE length(renamed || suffix) + length(regexp_replace(renamed || suffix, '[^\U00010000-\U0010FFFF]', '', 'g')) > 50 LOOP
        renamed := left(renamed, -1);
      END LOOP;
      renamed := rtrim(renamed) || suffix;
      EXIT WHEN NOT EXISTS (
        SELECT 1 FROM "desktop_applications"
        WHERE lower("application_version") = lower(renamed)
          AND substring("application_file" from '[.][^./]*$') = installer."type"
          AND "id" <> installer."id"
      );
      attempt := attempt + 1;
      suffix := ' (' || installer."id" || '-' || attempt || ')';
    END LOOP;
    UPDATE "desktop_applications" SET "application_version" = renamed WHERE "id" = installer."id";
  END LOOP;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX "desktop_applications_version_type_unique" ON "desktop_applications" USING btree (lower("application_version"),substring("application_file" from '[.][^./]*$'));
