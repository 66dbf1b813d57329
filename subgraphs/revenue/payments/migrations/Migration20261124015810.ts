import { Migration } from '@mikro-orm/migrations';

/** Payments organizations receive, and mobile money payments (one pending per order). */
export class Migration20261124015810 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "revenue"."mobile_money_payments" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "order_id" text not null, "order_key" text not null, "provider" text check ("provider" in ('mobile_money_a', 'mobile_money_b', 'mobile_money_c')) not null, "phone" text not null, "country" text null, "amount" numeric not null, "currency" text not null, "description" text null, "state" text check ("state" in ('pending', 'completed', 'failed', 'timeout')) not null default 'pending', "purpose_type" text check ("purpose_type" in ('invoice', 'premium', 'supply_order')) null, "purpose_id" uuid null, "organization_id" uuid null, "patient_id" uuid null, "initiated_by" uuid null, "provider_reference" text null, "requested_at" timestamptz null, "receipt" text null, "failure_reason" text null, "completed_at" timestamptz null, "last_checked_at" timestamptz null, constraint "mobile_money_payments_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "mobile_money_payments_order_id_index" on "revenue"."mobile_money_payments" ("order_id");`);
    this.addSql(`create index "mobile_money_payments_organization_id_index" on "revenue"."mobile_money_payments" ("organization_id");`);
    this.addSql(
      `create index "mobile_money_payments_state_created_at_index" on "revenue"."mobile_money_payments" ("state", "created_at");`,
    );
    this.addSql(
      `create index "mobile_money_payments_provider_provider_reference_index" on "revenue"."mobile_money_payments" ("provider", "provider_reference");`,
    );
    this.addSql(
      `create unique index "mobile_money_payments_one_pending_per_order" on "revenue"."mobile_money_payments" ("order_key") where "state" = 'pending';`,
    );
    this.addSql(
      `create table "revenue"."payments" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "method" text check ("method" in ('cash', 'card', 'bank_transfer', 'mobile_money', 'insurance', 'cheque', 'other')) not null, "amount" numeric not null, "currency" text not null, "patient_id" uuid null, "invoice_id" uuid null, "claim_id" uuid null, "mobile_money_payment_id" uuid null, "reference" text null, "payer_name" text null, "received_at" timestamptz not null, "recorded_by" uuid null, "notes" text null, constraint "payments_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "payments_invoice_id_index" on "revenue"."payments" ("invoice_id");`);
    this.addSql(`create index "payments_claim_id_index" on "revenue"."payments" ("claim_id");`);
    this.addSql(`create index "payments_organization_id_received_at_index" on "revenue"."payments" ("organization_id", "received_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "revenue"."payments" cascade;`);
    this.addSql(`drop table if exists "revenue"."mobile_money_payments" cascade;`);
  }
}
