import { Migration } from '@mikro-orm/migrations';

export class Migration20261122035627 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "org"."audit_events" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "action" text not null, "resource_type" text not null, "resource_id" text null, "patient_id" uuid null, "organization_id" uuid null, "actor_id" uuid null, "actor_type" text not null, "api_key_id" uuid null, "ip" text null, "user_agent" text null, "request_id" text null, "details" jsonb not null, constraint "audit_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "audit_events_actor_id_created_at_index" on "org"."audit_events" ("actor_id", "created_at");`);
    this.addSql(`create index "audit_events_patient_id_created_at_index" on "org"."audit_events" ("patient_id", "created_at");`);
    this.addSql(
      `create index "audit_events_resource_type_resource_id_created_at_index" on "org"."audit_events" ("resource_type", "resource_id", "created_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "org"."audit_events" cascade;`);
  }
}
