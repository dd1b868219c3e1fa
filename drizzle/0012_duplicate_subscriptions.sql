CREATE TABLE "duplicate_subscriptions" (
	"subscription_id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kept_subscription_id" text NOT NULL,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	"refund_id" text,
	"refunded_amount" integer,
	"currency" text,
	"failure" text
);
--> statement-breakpoint
ALTER TABLE "duplicate_subscriptions" ADD CONSTRAINT "duplicate_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "duplicate_subscriptions_user_idx" ON "duplicate_subscriptions" USING btree ("user_id");