-- The bytes of a person's room an upload under way may take, so that uploads at once stage no more than the room
-- (docs/decisions/076-an-upload-keeps-the-room-it-may-take.md). A slot taken by the release before keeps none; it
-- lapses within 60 s.
ALTER TABLE "upload_slots" ADD COLUMN "bytes" integer DEFAULT 0 NOT NULL;