import { Migration } from '@mikro-orm/migrations';

export class Migration20261124020748 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."patient_treatments" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "protocol_id" uuid not null, "protocol_version" int not null, "protocol_name" text not null, "start_date" date not null, "prescriber_id" uuid not null, "status" text check ("status" in ('active', 'completed', 'discontinued')) not null default 'active', "current_step" int null, "progress_note" text null, "end_date" date null, "discontinuation_reason" text null, "notes" text null, "assigned_by" uuid not null, "updated_by" uuid null, "closed_at" timestamptz null, constraint "patient_treatments_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "patient_treatments_organization_id_index" on "clinical"."patient_treatments" ("organization_id");`);
    this.addSql(`create index "patient_treatments_protocol_id_status_index" on "clinical"."patient_treatments" ("protocol_id", "status");`);
    this.addSql(
      `create index "patient_treatments_patient_id_start_date_index" on "clinical"."patient_treatments" ("patient_id", "start_date");`,
    );

    this.addSql(
      `create table "clinical"."treatment_protocols" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "name" text not null, "condition" text not null, "icd10_code" text not null, "description" text null, "version" int not null, "steps" jsonb not null, "organization_id" uuid null, "status" text check ("status" in ('active', 'retired')) not null default 'active', "created_by" uuid not null, "updated_by" uuid null, "retired_at" timestamptz null, "retired_by" uuid null, constraint "treatment_protocols_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "treatment_protocols_organization_id_status_index" on "clinical"."treatment_protocols" ("organization_id", "status");`,
    );

    this.addSql(
      `create table "clinical"."treatment_protocol_versions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "name" text not null, "condition" text not null, "icd10_code" text not null, "description" text null, "version" int not null, "steps" jsonb not null, "protocol_id" uuid not null, "changed_by" uuid not null, constraint "treatment_protocol_versions_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "clinical"."treatment_protocol_versions" add constraint "treatment_protocol_versions_protocol_id_version_unique" unique ("protocol_id", "version");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."patient_treatments" cascade;`);

    this.addSql(`drop table if exists "clinical"."treatment_protocols" cascade;`);

    this.addSql(`drop table if exists "clinical"."treatment_protocol_versions" cascade;`);
  }
}
