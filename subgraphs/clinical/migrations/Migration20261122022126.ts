import { Migration } from '@mikro-orm/migrations';

export class Migration20261122022126 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."diagnostic_reports" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "service_request_id" uuid null, "category" text null, "code" text not null, "code_system" text null, "title" text null, "findings" text null, "conclusion" text null, "result_summary" text null, "effective_at" timestamptz null, "status" text check ("status" in ('preliminary', 'final')) not null default 'preliminary', "recorded_by" uuid not null, "updated_by" uuid null, "signed_by" uuid null, "signed_at" timestamptz null, constraint "diagnostic_reports_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "diagnostic_reports_organization_id_index" on "clinical"."diagnostic_reports" ("organization_id");`);
    this.addSql(`create index "diagnostic_reports_service_request_id_index" on "clinical"."diagnostic_reports" ("service_request_id");`);
    this.addSql(
      `create index "diagnostic_reports_organization_id_created_at_index" on "clinical"."diagnostic_reports" ("organization_id", "created_at");`,
    );
    this.addSql(
      `create index "diagnostic_reports_patient_id_created_at_index" on "clinical"."diagnostic_reports" ("patient_id", "created_at");`,
    );

    this.addSql(
      `create table "clinical"."imaging_studies" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "imaging_order_id" uuid null, "service_request_id" uuid null, "modality" text not null, "body_part" text null, "description" text null, "study_instance_uid" text null, "number_of_series" int null, "number_of_instances" int null, "started_at" timestamptz null, "status" text check ("status" in ('registered', 'available', 'cancelled', 'entered_in_error')) not null, "recorded_by" uuid not null, "status_reason" text null, "status_changed_at" timestamptz null, "status_changed_by" uuid null, constraint "imaging_studies_pkey" primary key ("id"), constraint imaging_studies_number_of_series_check check (number_of_series >= 0), constraint imaging_studies_number_of_instances_check check (number_of_instances >= 0));`,
    );
    this.addSql(`create index "imaging_studies_organization_id_index" on "clinical"."imaging_studies" ("organization_id");`);
    this.addSql(`create index "imaging_studies_imaging_order_id_index" on "clinical"."imaging_studies" ("imaging_order_id");`);
    this.addSql(`create index "imaging_studies_service_request_id_index" on "clinical"."imaging_studies" ("service_request_id");`);
    this.addSql(
      `create index "imaging_studies_organization_id_created_at_index" on "clinical"."imaging_studies" ("organization_id", "created_at");`,
    );
    this.addSql(`create index "imaging_studies_patient_id_created_at_index" on "clinical"."imaging_studies" ("patient_id", "created_at");`);
    this.addSql(
      `create unique index "imaging_studies_study_instance_uid_unique" on "clinical"."imaging_studies" ("study_instance_uid") where "status" <> 'entered_in_error';`,
    );

    this.addSql(
      `create table "clinical"."service_requests" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "category" text null, "code" text not null, "code_system" text null, "description" text null, "priority" text check ("priority" in ('routine', 'urgent', 'asap', 'stat')) not null, "reason" text null, "notes" text null, "performer_organization_id" uuid null, "occurrence_at" timestamptz null, "status" text check ("status" in ('draft', 'active', 'on_hold', 'completed', 'revoked', 'entered_in_error')) not null, "requester_id" uuid not null, "status_reason" text null, "status_changed_at" timestamptz null, "status_changed_by" uuid null, constraint "service_requests_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "service_requests_organization_id_index" on "clinical"."service_requests" ("organization_id");`);
    this.addSql(
      `create index "service_requests_organization_id_created_at_index" on "clinical"."service_requests" ("organization_id", "created_at");`,
    );
    this.addSql(
      `create index "service_requests_patient_id_created_at_index" on "clinical"."service_requests" ("patient_id", "created_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."diagnostic_reports" cascade;`);

    this.addSql(`drop table if exists "clinical"."imaging_studies" cascade;`);

    this.addSql(`drop table if exists "clinical"."service_requests" cascade;`);
  }
}
