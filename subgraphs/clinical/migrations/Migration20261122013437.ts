import { Migration } from '@mikro-orm/migrations';

export class Migration20261122013437 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."lab_orders" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "test_type" text not null, "priority" text check ("priority" in ('routine', 'urgent', 'asap', 'stat')) not null, "status" text check ("status" in ('ordered', 'in_progress', 'resulted', 'cancelled')) not null default 'ordered', "notes" text null, "ordered_by" uuid not null, "updated_by" uuid null, "resulted_at" timestamptz null, "cancelled_at" timestamptz null, "cancelled_by" uuid null, "cancel_reason" text null, constraint "lab_orders_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "lab_orders_organization_id_created_at_index" on "clinical"."lab_orders" ("organization_id", "created_at");`);
    this.addSql(`create index "lab_orders_patient_id_created_at_index" on "clinical"."lab_orders" ("patient_id", "created_at");`);

    this.addSql(
      `create table "clinical"."lab_results" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "lab_order_id" uuid not null, "patient_id" uuid not null, "organization_id" uuid not null, "code" text not null, "code_system" text null, "display" text null, "value_type" text not null, "value" text null, "numeric_value" double precision null, "unit" text null, "reference_range" text null, "abnormal_flag" text null, "abnormal" boolean not null, "critical" boolean not null, "result_status" text not null, "observed_at" timestamptz null, "message_control_id" text not null, "sequence" int not null, "review_status" text check ("review_status" in ('not_required', 'pending_review', 'reviewed')) not null, "reviewed_by" uuid null, "reviewed_at" timestamptz null, "review_note" text null, constraint "lab_results_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "lab_results_lab_order_id_index" on "clinical"."lab_results" ("lab_order_id");`);
    this.addSql(`create index "lab_results_patient_id_created_at_index" on "clinical"."lab_results" ("patient_id", "created_at");`);
    this.addSql(
      `alter table "clinical"."lab_results" add constraint "lab_results_organization_id_message_control_id_sequence_unique" unique ("organization_id", "message_control_id", "sequence");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."lab_orders" cascade;`);

    this.addSql(`drop table if exists "clinical"."lab_results" cascade;`);
  }
}
