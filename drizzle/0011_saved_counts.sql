-- Generated columns are computed for every existing row as they are added (the backfill); one ALTER TABLE
-- adds both, so the table is rewritten once.
ALTER TABLE "saved_subliminals" ADD COLUMN "message_count" integer GENERATED ALWAYS AS (case jsonb_typeof("playlist") when 'array' then jsonb_array_length("playlist") else 0 end) STORED NOT NULL,
  ADD COLUMN "layer_count" integer GENERATED ALWAYS AS (case jsonb_typeof("sound" -> 'layers') when 'array' then jsonb_array_length("sound" -> 'layers') else 0 end) STORED NOT NULL;
