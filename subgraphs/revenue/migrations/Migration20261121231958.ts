import { Migration } from '@mikro-orm/migrations';

export class Migration20261121231958 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create schema if not exists "revenue";`);
    this.addSql(
      `create table "revenue"."counters" ("scope" text not null, "owner" text not null, "value" int not null, constraint "counters_pkey" primary key ("scope", "owner"));`,
    );

    this.addSql(
      `create table "revenue"."invoices" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "patient_id" uuid null, "number" text not null, "status" text check ("status" in ('draft', 'issued', 'paid', 'void')) not null default 'draft', "currency" text not null, "items" jsonb not null, "total_amount" numeric(14,2) not null, "due_date" date null, "notes" text null, "created_by" uuid not null, constraint "invoices_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "invoices_organization_id_index" on "revenue"."invoices" ("organization_id");`);
    this.addSql(`create index "invoices_patient_id_index" on "revenue"."invoices" ("patient_id");`);
    this.addSql(
      `alter table "revenue"."invoices" add constraint "invoices_organization_id_number_unique" unique ("organization_id", "number");`,
    );

    this.addSql(
      `create table "revenue"."outbox" ("id" uuid not null, "topic" text not null, "payload" jsonb not null, "source_service" text not null, "created_at" timestamptz not null, "published_at" timestamptz null, constraint "outbox_pkey" primary key ("id"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "revenue"."counters" cascade;`);

    this.addSql(`drop table if exists "revenue"."invoices" cascade;`);

    this.addSql(`drop table if exists "revenue"."outbox" cascade;`);

    this.addSql(`drop schema if exists "revenue";`);
  }
}
