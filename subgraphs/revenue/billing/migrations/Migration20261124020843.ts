import { Migration } from '@mikro-orm/migrations';

/** Subscription invoices from the billing provider, and when the subscription's status was last set (for ordering). */
export class Migration20261124020843 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "revenue"."subscription_invoices" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "provider_invoice_id" text not null, "number" text null, "status" text not null, "currency" text null, "amount_due" numeric null, "amount_paid" numeric null, "period_start" timestamptz null, "period_end" timestamptz null, "hosted_url" text null, "attempt_count" int null, "paid_at" timestamptz null, "last_event_at" timestamptz not null, constraint "subscription_invoices_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "subscription_invoices_organization_id_index" on "revenue"."subscription_invoices" ("organization_id");`);
    this.addSql(
      `alter table "revenue"."subscription_invoices" add constraint "subscription_invoices_provider_invoice_id_unique" unique ("provider_invoice_id");`,
    );

    this.addSql(`alter table "revenue"."organization_subscriptions" add column "status_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "revenue"."subscription_invoices" cascade;`);

    this.addSql(`alter table "revenue"."organization_subscriptions" drop column "status_at";`);
  }
}
