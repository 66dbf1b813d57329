import { Migration } from '@mikro-orm/migrations';

export class Migration20261122010952 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."audit_events" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "action" text not null, "resource_type" text not null, "resource_id" text null, "patient_id" uuid null, "organization_id" uuid null, "actor_id" uuid null, "actor_type" text not null, "api_key_id" uuid null, "ip" text null, "user_agent" text null, "request_id" text null, "details" jsonb not null, constraint "audit_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "audit_events_actor_id_created_at_index" on "clinical"."audit_events" ("actor_id", "created_at");`);
    this.addSql(`create index "audit_events_patient_id_created_at_index" on "clinical"."audit_events" ("patient_id", "created_at");`);
    this.addSql(
      `create index "audit_events_resource_type_resource_id_created_at_index" on "clinical"."audit_events" ("resource_type", "resource_id", "created_at");`,
    );

    this.addSql(
      `create table "clinical"."clinical_records" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "encounter_type" text not null, "chief_complaint" text null, "notes" text null, "version" int not null default 1, "author_id" uuid not null, "updated_by" uuid null, "deleted_at" timestamptz null, constraint "clinical_records_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "clinical_records_organization_id_index" on "clinical"."clinical_records" ("organization_id");`);
    this.addSql(`create index "clinical_records_author_id_index" on "clinical"."clinical_records" ("author_id");`);
    this.addSql(
      `create index "clinical_records_patient_id_created_at_index" on "clinical"."clinical_records" ("patient_id", "created_at");`,
    );

    this.addSql(
      `create table "clinical"."clinical_record_versions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "record_id" uuid not null, "version" int not null, "change" text not null, "snapshot" jsonb not null, "changed_by" uuid not null, constraint "clinical_record_versions_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "clinical"."clinical_record_versions" add constraint "clinical_record_versions_record_id_version_unique" unique ("record_id", "version");`,
    );

    this.addSql(
      `create table "clinical"."consents" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "grantee_user_id" uuid null, "grantee_organization_id" uuid null, "status" text check ("status" in ('requested', 'active', 'revoked')) not null, "purpose" text null, "expires_at" timestamptz null, "requested_by" uuid null, "granted_at" timestamptz null, "revoked_at" timestamptz null, constraint "consents_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "consents_grantee_user_id_index" on "clinical"."consents" ("grantee_user_id");`);
    this.addSql(`create index "consents_grantee_organization_id_index" on "clinical"."consents" ("grantee_organization_id");`);
    this.addSql(`create index "consents_patient_id_status_index" on "clinical"."consents" ("patient_id", "status");`);

    this.addSql(
      `create table "clinical"."processed_events" ("consumer" text not null, "event_id" text not null, "processed_at" timestamptz not null, constraint "processed_events_pkey" primary key ("consumer", "event_id"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."audit_events" cascade;`);

    this.addSql(`drop table if exists "clinical"."clinical_records" cascade;`);

    this.addSql(`drop table if exists "clinical"."clinical_record_versions" cascade;`);

    this.addSql(`drop table if exists "clinical"."consents" cascade;`);

    this.addSql(`drop table if exists "clinical"."processed_events" cascade;`);
  }
}
