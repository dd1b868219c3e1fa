CREATE TABLE "guidance_preferences" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"goals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"free_text" text DEFAULT '' NOT NULL,
	"headphones" boolean,
	"session_minutes" integer,
	"skipped" boolean DEFAULT false NOT NULL,
	"completed_at" timestamp with time zone,
	"reminder_enabled" boolean DEFAULT false NOT NULL,
	"reminder_time" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "listening_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"ref" text DEFAULT '' NOT NULL,
	"title" text NOT NULL,
	"seconds" integer NOT NULL,
	"finished" boolean NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "listening_history_seconds_check" CHECK ("listening_history"."seconds" between 1 and 86400),
	CONSTRAINT "listening_history_kind_check" CHECK ("listening_history"."kind" in ('subliminal', 'music', 'binaural', 'program'))
);
--> statement-breakpoint
CREATE TABLE "program_days" (
	"id" serial PRIMARY KEY NOT NULL,
	"program_id" integer NOT NULL,
	"day" integer NOT NULL,
	"title" text NOT NULL,
	"intro" text NOT NULL,
	"minutes" integer NOT NULL,
	"messages" jsonb NOT NULL,
	"layers" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "program_progress" (
	"user_id" integer NOT NULL,
	"program_id" integer NOT NULL,
	"day" integer NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "program_progress_user_id_program_id_day_pk" PRIMARY KEY("user_id","program_id","day")
);
--> statement-breakpoint
CREATE TABLE "programs" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"goals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "guidance_preferences" ADD CONSTRAINT "guidance_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listening_history" ADD CONSTRAINT "listening_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_days" ADD CONSTRAINT "program_days_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_progress" ADD CONSTRAINT "program_progress_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_progress" ADD CONSTRAINT "program_progress_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listening_history_user_started_idx" ON "listening_history" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "program_days_program_day_unique" ON "program_days" USING btree ("program_id","day");--> statement-breakpoint
CREATE INDEX "program_progress_program_idx" ON "program_progress" USING btree ("program_id");--> statement-breakpoint
CREATE UNIQUE INDEX "programs_slug_unique" ON "programs" USING btree ("slug");