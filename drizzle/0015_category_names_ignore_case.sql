-- Category names that differ only in case became one name, as audio names did (0013): of each such set the
-- oldest keeps its name and the others take their id after it ("calm (12)"), so no category or message is
-- lost and staff can rename them. Repeated until no two names are one: a renamed "calm (12)" may meet a
-- "Calm (12)" already there, which then takes its own id.
DO $$
BEGIN
  LOOP
    UPDATE "message_categories" SET "name" = "name" || ' (' || "id" || ')' WHERE EXISTS (SELECT 1 FROM "message_categories" AS "older" WHERE lower("older"."name") = lower("message_categories"."name") AND "older"."id" < "message_categories"."id");
    EXIT WHEN NOT FOUND;
  END LOOP;
END $$;--> statement-breakpoint
DROP INDEX "message_categories_name_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "message_categories_lower_name_unique" ON "message_categories" USING btree (lower("name"));
