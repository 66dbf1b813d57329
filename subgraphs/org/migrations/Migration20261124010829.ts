import { Migration } from '@mikro-orm/migrations';

/**
 * Platform plumbing and billing state leave the org schema:
 * - dead letters and webhook deliveries go to the platform's own schema (workers/store). Whichever of this
 *   migration and the platform's Migration20261124010825 runs first moves the tables; rows found here after the
 *   platform made its own are copied over. The platform opens its store before any subgraph starts, so its
 *   schema exists here on every database that has rows to move.
 * - the subscription and payment state kept on organizations goes to the revenue schema's
 *   organization_subscriptions (the billing module). The table is created here when the revenue migration has not
 *   run yet (same definition), so the data is copied before its columns are dropped, in either order. A database
 *   without a revenue schema is new and has no subscription data.
 * Other schemas are never created here: they belong to their owners.
 */
export class Migration20261124010829 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`do $$ begin
      if to_regclass('org.dead_letters') is not null and to_regnamespace('platform') is not null then
        if to_regclass('platform.dead_letters') is null then
          alter table "org"."dead_letters" set schema "platform";
        else
          insert into "platform"."dead_letters" ("id", "created_at", "updated_at", "event_id", "topic", "queue", "original_payload", "envelope", "error", "attempts")
            select "id", "created_at", "updated_at", "event_id", "topic", "queue", "original_payload", "envelope", "error", "attempts" from "org"."dead_letters"
            on conflict do nothing;
          drop table "org"."dead_letters";
        end if;
      end if;
      if to_regclass('org.webhook_deliveries') is not null and to_regnamespace('platform') is not null then
        if to_regclass('platform.webhook_deliveries') is null then
          alter table "org"."webhook_deliveries" set schema "platform";
        else
          insert into "platform"."webhook_deliveries" ("id", "created_at", "updated_at", "provider", "provider_event_id", "event_type", "raw_body")
            select "id", "created_at", "updated_at", "provider", "provider_event_id", "event_type", "raw_body" from "org"."webhook_deliveries"
            on conflict do nothing;
          drop table "org"."webhook_deliveries";
        end if;
      end if;
    end $$;`);
    this.addSql(`drop table if exists "org"."dead_letters" cascade;`);
    this.addSql(`drop table if exists "org"."webhook_deliveries" cascade;`);

    this.addSql(`do $$ begin
      if to_regnamespace('revenue') is not null then
        create table if not exists "revenue"."organization_subscriptions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "billing_customer_id" text null, "subscription_id" text null, "status" text null, "plan" text null, "current_period_end" timestamptz null, "last_payment_status" text null, "last_payment_at" timestamptz null, constraint "organization_subscriptions_pkey" primary key ("id"), constraint "organization_subscriptions_organization_id_unique" unique ("organization_id"));
        insert into "revenue"."organization_subscriptions" ("id", "created_at", "updated_at", "organization_id", "billing_customer_id", "subscription_id", "status", "plan", "current_period_end", "last_payment_status", "last_payment_at")
      select gen_random_uuid(), now(), now(), "id", "billing_customer_id", "subscription_id", "subscription_status", "subscription_plan", "subscription_period_end", "last_payment_status", "last_payment_at"
      from "org"."organizations"
      where coalesce("billing_customer_id", "subscription_id", "subscription_status", "last_payment_status") is not null
      on conflict ("organization_id") do nothing;
      end if;
    end $$;`);
    this.addSql(`drop index "org"."organizations_billing_customer_id_index";`);
    this.addSql(`drop index "org"."organizations_subscription_id_index";`);
    this.addSql(
      `alter table "org"."organizations" drop column "billing_customer_id", drop column "subscription_id", drop column "subscription_status", drop column "subscription_plan", drop column "subscription_period_end", drop column "last_payment_status", drop column "last_payment_at";`,
    );
  }
}
