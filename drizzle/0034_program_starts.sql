-- A program counts as started once the server has recorded a session of one of its days (not only once a day is
-- done): its first such session, kept until the person resets the program (docs/product/guidance.md#programs).
-- Sessions recorded before are read from the history, as the server now writes them on recording.
CREATE TABLE "program_starts" (
	"user_id" integer NOT NULL,
	"program_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	CONSTRAINT "program_starts_user_id_program_id_pk" PRIMARY KEY("user_id","program_id")
);
--> statement-breakpoint
ALTER TABLE "program_starts" ADD CONSTRAINT "program_starts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_starts" ADD CONSTRAINT "program_starts_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "program_starts_program_idx" ON "program_starts" USING btree ("program_id");--> statement-breakpoint
INSERT INTO "program_starts" ("user_id", "program_id", "started_at")
SELECT h."user_id", p."id", min(h."started_at")
FROM "listening_history" h JOIN "programs" p ON h."ref" ~ ('^program:' || p."slug" || '/[0-9]+$')
WHERE h."kind" = 'program'
GROUP BY h."user_id", p."id";