import { Migration } from '@mikro-orm/migrations';

export class Migration20261122013530 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."allergies" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "substance" text not null, "reaction" text null, "severity" text null, "type" text not null, "category" text null, "criticality" text null, "onset_date" date null, "status" text check ("status" in ('active', 'inactive', 'resolved')) not null, "notes" text null, "recorded_by" uuid not null, "updated_by" uuid null, "active_substance_key" text null, constraint "allergies_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "allergies_organization_id_index" on "clinical"."allergies" ("organization_id");`);
    this.addSql(`create index "allergies_patient_id_created_at_index" on "clinical"."allergies" ("patient_id", "created_at");`);
    this.addSql(
      `alter table "clinical"."allergies" add constraint "allergies_patient_id_active_substance_key_unique" unique ("patient_id", "active_substance_key");`,
    );

    this.addSql(
      `create table "clinical"."imaging_orders" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "modality" text not null, "body_part" text null, "laterality" text null, "priority" text not null, "clinical_indication" text not null, "notes" text null, "status" text check ("status" in ('ordered', 'scheduled', 'in_progress', 'completed', 'cancelled')) not null, "ordered_by" uuid not null, "scheduled_at" timestamptz null, "started_at" timestamptz null, "completed_at" timestamptz null, "cancelled_at" timestamptz null, "cancelled_by" uuid null, "cancel_reason" text null, constraint "imaging_orders_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "imaging_orders_organization_id_index" on "clinical"."imaging_orders" ("organization_id");`);
    this.addSql(`create index "imaging_orders_patient_id_created_at_index" on "clinical"."imaging_orders" ("patient_id", "created_at");`);

    this.addSql(
      `create table "clinical"."observations" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "code" text not null, "display" text null, "category" text not null, "value_quantity" double precision null, "unit" text null, "value_string" text null, "status" text check ("status" in ('registered', 'preliminary', 'final', 'amended', 'cancelled', 'entered_in_error')) not null, "effective_at" timestamptz not null, "interpretation" text null, "notes" text null, "recorded_by" uuid not null, "updated_by" uuid null, constraint "observations_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "observations_organization_id_index" on "clinical"."observations" ("organization_id");`);
    this.addSql(`create index "observations_patient_id_effective_at_index" on "clinical"."observations" ("patient_id", "effective_at");`);

    this.addSql(
      `create table "clinical"."vitals" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "heart_rate" double precision null, "blood_pressure_systolic" double precision null, "blood_pressure_diastolic" double precision null, "temperature" double precision null, "respiratory_rate" double precision null, "oxygen_saturation" double precision null, "weight_kg" double precision null, "height_cm" double precision null, "notes" text null, "recorded_at" timestamptz not null, "status" text check ("status" in ('final', 'amended', 'entered_in_error')) not null, "recorded_by" uuid not null, "updated_by" uuid null, constraint "vitals_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "vitals_organization_id_index" on "clinical"."vitals" ("organization_id");`);
    this.addSql(`create index "vitals_patient_id_recorded_at_index" on "clinical"."vitals" ("patient_id", "recorded_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."allergies" cascade;`);

    this.addSql(`drop table if exists "clinical"."imaging_orders" cascade;`);

    this.addSql(`drop table if exists "clinical"."observations" cascade;`);

    this.addSql(`drop table if exists "clinical"."vitals" cascade;`);
  }
}
