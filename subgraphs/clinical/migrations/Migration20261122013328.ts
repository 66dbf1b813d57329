import { Migration } from '@mikro-orm/migrations';

export class Migration20261122013328 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."eprescriptions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "prescription_id" uuid not null, "patient_id" uuid not null, "organization_id" uuid null, "pharmacy_id" uuid not null, "status" text check ("status" in ('pending', 'transmitted', 'dispensed', 'cancelled')) not null default 'pending', "refills_remaining" int not null, "created_by" uuid not null, "transmitted_by" uuid null, "transmitted_at" timestamptz null, "dispensed_by" uuid null, "dispensed_at" timestamptz null, "refill_requested_by" uuid null, "refill_requested_at" timestamptz null, "cancelled_by" uuid null, "cancelled_at" timestamptz null, constraint "eprescriptions_pkey" primary key ("id"), constraint eprescriptions_refills_remaining_check check (refills_remaining >= 0));`,
    );
    this.addSql(`create index "eprescriptions_prescription_id_index" on "clinical"."eprescriptions" ("prescription_id");`);
    this.addSql(`create index "eprescriptions_pharmacy_id_created_at_index" on "clinical"."eprescriptions" ("pharmacy_id", "created_at");`);
    this.addSql(`create index "eprescriptions_patient_id_created_at_index" on "clinical"."eprescriptions" ("patient_id", "created_at");`);

    this.addSql(
      `create table "clinical"."prescriptions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "prescriber_id" uuid not null, "medication" text not null, "dosage" text not null, "frequency" text not null, "duration" text null, "instructions" text null, "refills" int not null default 0, "status" text check ("status" in ('draft', 'signed', 'cancelled')) not null default 'draft', "signed_by" uuid null, "signed_at" timestamptz null, "cancelled_by" uuid null, "cancelled_at" timestamptz null, "cancellation_reason" text null, constraint "prescriptions_pkey" primary key ("id"), constraint prescriptions_refills_check check (refills >= 0));`,
    );
    this.addSql(`create index "prescriptions_organization_id_index" on "clinical"."prescriptions" ("organization_id");`);
    this.addSql(`create index "prescriptions_prescriber_id_index" on "clinical"."prescriptions" ("prescriber_id");`);
    this.addSql(`create index "prescriptions_patient_id_created_at_index" on "clinical"."prescriptions" ("patient_id", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."eprescriptions" cascade;`);

    this.addSql(`drop table if exists "clinical"."prescriptions" cascade;`);
  }
}
