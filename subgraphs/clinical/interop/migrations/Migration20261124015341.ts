import { Migration } from '@mikro-orm/migrations';

export class Migration20261124015341 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."smart_launches" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "client_id" text not null, "encounter_id" uuid null, "launched_by" uuid not null, "expires_at" timestamptz not null, constraint "smart_launches_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "smart_launches_organization_id_index" on "clinical"."smart_launches" ("organization_id");`);
    this.addSql(`create index "smart_launches_patient_id_created_at_index" on "clinical"."smart_launches" ("patient_id", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."smart_launches" cascade;`);
  }
}
