import { Migration } from '@mikro-orm/migrations';

export class Migration20261124015033 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."notifiable_cases" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "disease_code" text not null, "icd10_code" text not null, "onset_date" date not null, "classification" text check ("classification" in ('suspected', 'probable', 'confirmed')) not null, "outcome" text check ("outcome" in ('under_treatment', 'recovered', 'died', 'lost_to_follow_up', 'unknown')) not null default 'unknown', "immediately_notifiable" boolean not null, "primary_case_id" uuid null, "notes" text null, "reported_by" uuid not null, constraint "notifiable_cases_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "notifiable_cases_organization_id_index" on "clinical"."notifiable_cases" ("organization_id");`);
    this.addSql(`create index "notifiable_cases_primary_case_id_index" on "clinical"."notifiable_cases" ("primary_case_id");`);
    this.addSql(`create index "notifiable_cases_onset_date_index" on "clinical"."notifiable_cases" ("onset_date");`);
    this.addSql(
      `create index "notifiable_cases_organization_id_onset_date_index" on "clinical"."notifiable_cases" ("organization_id", "onset_date");`,
    );
    this.addSql(
      `create index "notifiable_cases_patient_id_disease_code_onset_date_index" on "clinical"."notifiable_cases" ("patient_id", "disease_code", "onset_date");`,
    );

    this.addSql(
      `create table "clinical"."reportsys_submissions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "kind" text check ("kind" in ('cases', 'surveillance')) not null, "data_set" text not null, "period" text not null, "org_unit" text not null, "organization_id" uuid not null, "provider" text not null, "data_value_set" jsonb not null, "status" text check ("status" in ('success', 'warning', 'error')) not null, "imported" int not null, "updated" int not null, "ignored" int not null, "deleted" int not null, "conflicts" jsonb not null, "import_summary" jsonb not null, "attempts" int not null default 1, "pushed_at" timestamptz not null, "pushed_by" uuid not null, constraint "reportsys_submissions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "reportsys_submissions_period_index" on "clinical"."reportsys_submissions" ("period");`);
    this.addSql(
      `alter table "clinical"."reportsys_submissions" add constraint "reportsys_submissions_kind_data_set_period_org_unit_unique" unique ("kind", "data_set", "period", "org_unit");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."notifiable_cases" cascade;`);

    this.addSql(`drop table if exists "clinical"."reportsys_submissions" cascade;`);
  }
}
