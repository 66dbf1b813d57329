import { Migration } from '@mikro-orm/migrations';

export class Migration20261124015027 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "revenue"."supply_orders" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "number" text not null, "facility_id" uuid not null, "customer_id" uuid not null, "patient_id" uuid null, "status" text check ("status" in ('pending', 'verified', 'paid', 'packed', 'dispatched', 'delivered', 'cancelled')) not null default 'pending', "items" jsonb not null, "currency" text not null, "total_amount" numeric not null, "delivery_address" text null, "notes" text null, "verified_by" uuid null, "verified_at" timestamptz null, "verification_notes" text null, "payment_state" text check ("payment_state" in ('none', 'requested', 'completed')) not null default 'none', "payment_provider" text null, "payment_id" text null, "paid_at" timestamptz null, "packed_at" timestamptz null, "dispatched_at" timestamptz null, "delivered_at" timestamptz null, "cancelled_by" uuid null, "cancelled_at" timestamptz null, "cancellation_reason" text null, constraint "supply_orders_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "supply_orders_customer_id_index" on "revenue"."supply_orders" ("customer_id");`);
    this.addSql(`create index "supply_orders_patient_id_index" on "revenue"."supply_orders" ("patient_id");`);
    this.addSql(`create index "supply_orders_facility_id_created_at_index" on "revenue"."supply_orders" ("facility_id", "created_at");`);
    this.addSql(
      `alter table "revenue"."supply_orders" add constraint "supply_orders_facility_id_number_unique" unique ("facility_id", "number");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "revenue"."supply_orders" cascade;`);
  }
}
