import { Migration } from '@mikro-orm/migrations';

/** Aggregate reporting mappings set per organization (org unit, data sets, data elements); others report by the seed or the built-in default. */
export class Migration20261207214337 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."reportsys_mappings" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "id_scheme" text check ("id_scheme" in ('uid', 'code')) not null, "org_unit" text not null, "data_set" text not null, "surveillance_data_set" text null, "attribute_option_combo" text null, "age_bands" jsonb not null, "diseases" jsonb not null, "syndromes" jsonb not null, "updated_by" uuid not null, constraint "reportsys_mappings_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "clinical"."reportsys_mappings" add constraint "reportsys_mappings_organization_id_unique" unique ("organization_id");`,
    );
    this.addSql(
      `alter table "clinical"."reportsys_mappings" add constraint "reportsys_mappings_id_scheme_org_unit_unique" unique ("id_scheme", "org_unit");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."reportsys_mappings" cascade;`);
  }
}
