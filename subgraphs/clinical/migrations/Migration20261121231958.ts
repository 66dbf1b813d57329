import { Migration } from '@mikro-orm/migrations';

export class Migration20261121231958 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create schema if not exists "clinical";`);
    this.addSql(
      `create table "clinical"."counters" ("scope" text not null, "owner" text not null, "value" int not null, constraint "counters_pkey" primary key ("scope", "owner"));`,
    );

    this.addSql(
      `create table "clinical"."outbox" ("id" uuid not null, "topic" text not null, "payload" jsonb not null, "source_service" text not null, "created_at" timestamptz not null, "published_at" timestamptz null, constraint "outbox_pkey" primary key ("id"));`,
    );

    this.addSql(
      `create table "clinical"."patients" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "first_name" text not null, "last_name" text not null, "date_of_birth" date not null, "gender" text null, "phone" text null, "email" text null, "mrn" text null, "organization_id" uuid null, "user_id" uuid null, "created_by" uuid not null, constraint "patients_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "patients_organization_id_index" on "clinical"."patients" ("organization_id");`);
    this.addSql(`create index "patients_user_id_index" on "clinical"."patients" ("user_id");`);
    this.addSql(`create index "patients_created_by_index" on "clinical"."patients" ("created_by");`);
    this.addSql(
      `alter table "clinical"."patients" add constraint "patients_organization_id_mrn_unique" unique ("organization_id", "mrn");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."counters" cascade;`);

    this.addSql(`drop table if exists "clinical"."outbox" cascade;`);

    this.addSql(`drop table if exists "clinical"."patients" cascade;`);

    this.addSql(`drop schema if exists "clinical";`);
  }
}
