-- What the seed has put in once, so that a seeded item staff delete or rename is not put in again
-- (docs/decisions/009-starting-content-is-ours-and-seeded-at-start.md). Every start so far put back what
-- was missing, so what is there now is what the seed has put in: it is recorded as seeded.
CREATE TABLE "seeded_content" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"seeded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "seeded_content_kind_key_pk" PRIMARY KEY("kind","key")
);
--> statement-breakpoint
INSERT INTO "seeded_content" ("kind", "key")
SELECT 'category', lower("name") FROM "message_categories"
UNION SELECT 'program', lower("slug") FROM "programs"
UNION SELECT 'audio:' || "kind", lower("name") FROM "audio_items"
ON CONFLICT DO NOTHING;
