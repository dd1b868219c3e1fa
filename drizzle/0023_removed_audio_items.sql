CREATE TABLE "removed_audio_items" (
	"id" integer PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL
);
