import { Migration } from '@mikro-orm/migrations';

/** Organization subscriptions (the org migration of the same day may have created the table already, with its data). */
export class Migration20261124010831 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "revenue"."organization_subscriptions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "billing_customer_id" text null, "subscription_id" text null, "status" text null, "plan" text null, "current_period_end" timestamptz null, "last_payment_status" text null, "last_payment_at" timestamptz null, constraint "organization_subscriptions_pkey" primary key ("id"), constraint "organization_subscriptions_organization_id_unique" unique ("organization_id"));`,
    );
    this.addSql(
      `create index if not exists "organization_subscriptions_billing_customer_id_index" on "revenue"."organization_subscriptions" ("billing_customer_id");`,
    );
    this.addSql(
      `create index if not exists "organization_subscriptions_subscription_id_index" on "revenue"."organization_subscriptions" ("subscription_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "revenue"."organization_subscriptions" cascade;`);
  }
}
