import { Migration } from '@mikro-orm/migrations';

export class Migration20261122013127 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."data_subject_requests" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "type" text check ("type" in ('erasure', 'export')) not null, "status" text check ("status" in ('completed', 'rejected')) not null, "reason" text null, "requested_by" uuid not null, "completed_at" timestamptz null, "outcome" jsonb not null, constraint "data_subject_requests_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "data_subject_requests_patient_id_created_at_index" on "clinical"."data_subject_requests" ("patient_id", "created_at");`,
    );

    this.addSql(
      `create table "clinical"."journey_events" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "type" text not null, "title" text not null, "description" text null, "occurred_at" timestamptz not null, "recorded_by" uuid not null, constraint "journey_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "journey_events_patient_id_occurred_at_index" on "clinical"."journey_events" ("patient_id", "occurred_at");`);

    // Versions written before this column existed take their patient from their record.
    this.addSql(`alter table "clinical"."clinical_record_versions" add column "patient_id" uuid null;`);
    this.addSql(
      `update "clinical"."clinical_record_versions" v set "patient_id" = r."patient_id" from "clinical"."clinical_records" r where r."id" = v."record_id";`,
    );
    this.addSql(`alter table "clinical"."clinical_record_versions" alter column "patient_id" set not null;`);
    this.addSql(`create index "clinical_record_versions_patient_id_index" on "clinical"."clinical_record_versions" ("patient_id");`);

    this.addSql(`alter table "clinical"."patients" add column "erased_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."data_subject_requests" cascade;`);

    this.addSql(`drop table if exists "clinical"."journey_events" cascade;`);

    this.addSql(`drop index "clinical"."clinical_record_versions_patient_id_index";`);
    this.addSql(`alter table "clinical"."clinical_record_versions" drop column "patient_id";`);

    this.addSql(`alter table "clinical"."patients" drop column "erased_at";`);
  }
}
