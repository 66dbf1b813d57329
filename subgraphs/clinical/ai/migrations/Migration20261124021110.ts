import { Migration } from '@mikro-orm/migrations';

export class Migration20261124021110 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."ai_devices" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "serial_number" text not null, "name" text not null, "model_id" uuid not null, "location" text null, "heartbeat_interval_seconds" int not null, "reported_model_version" text null, "reported_status" text check ("reported_status" in ('running', 'idle', 'updating', 'error')) null, "last_message" text null, "last_heartbeat_at" timestamptz null, "registered_by" uuid not null, constraint "ai_devices_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "ai_devices_organization_id_index" on "clinical"."ai_devices" ("organization_id");`);
    this.addSql(
      `alter table "clinical"."ai_devices" add constraint "ai_devices_organization_id_serial_number_unique" unique ("organization_id", "serial_number");`,
    );

    this.addSql(
      `create table "clinical"."ai_models" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "name" text not null, "version" text not null, "task" text check ("task" in ('diagnosis', 'lab_interpretation', 'risk_stratification', 'cancer_detection', 'general')) not null, "runtime" text check ("runtime" in ('builtin', 'kserve_v2', 'openai')) not null, "endpoint" text null, "remote_model" text null, "validation_reference" text not null, "description" text null, "status" text check ("status" in ('active', 'retired')) not null default 'active', "timeout_ms" int not null, "credential" text null, "registered_by" uuid null, constraint "ai_models_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "ai_models_task_status_index" on "clinical"."ai_models" ("task", "status");`);
    this.addSql(`alter table "clinical"."ai_models" add constraint "ai_models_name_version_unique" unique ("name", "version");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."ai_devices" cascade;`);

    this.addSql(`drop table if exists "clinical"."ai_models" cascade;`);
  }
}
