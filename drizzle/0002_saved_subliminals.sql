CREATE TABLE "saved_subliminals" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"playlist" jsonb NOT NULL,
	"settings" jsonb NOT NULL,
	"share_token" text,
	"shared_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_subliminals_share_token_unique" UNIQUE("share_token")
);
--> statement-breakpoint
ALTER TABLE "own_categories" ADD COLUMN "share_token" text;--> statement-breakpoint
ALTER TABLE "own_categories" ADD COLUMN "shared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "saved_subliminals" ADD CONSTRAINT "saved_subliminals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_subliminals_user_idx" ON "saved_subliminals" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "own_categories" ADD CONSTRAINT "own_categories_share_token_unique" UNIQUE("share_token");