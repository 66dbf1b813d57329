import { Migration } from '@mikro-orm/migrations';

export class Migration20261122013416 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."immunizations" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "vaccine" text not null, "dose_number" int not null, "due_date" date not null, "earliest_date" date not null, "latest_date" date null, "state" text check ("state" in ('scheduled', 'administered')) not null default 'scheduled', "administered_on" date null, "lot_number" text null, "site" text null, "notes" text null, "administered_by" uuid null, "flagged" boolean not null default false, "flags" text[] not null default '{}', "override_reason" text null, constraint "immunizations_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "immunizations_organization_id_index" on "clinical"."immunizations" ("organization_id");`);
    this.addSql(
      `alter table "clinical"."immunizations" add constraint "immunizations_patient_id_vaccine_dose_number_unique" unique ("patient_id", "vaccine", "dose_number");`,
    );

    this.addSql(
      `create table "clinical"."immunization_adverse_events" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "immunization_id" uuid null, "vaccine" text not null, "onset_date" date not null, "description" text not null, "severity" text not null, "serious" boolean not null, "outcome" text null, "reported_by" uuid not null, constraint "immunization_adverse_events_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "immunization_adverse_events_organization_id_index" on "clinical"."immunization_adverse_events" ("organization_id");`,
    );
    this.addSql(
      `create index "immunization_adverse_events_immunization_id_index" on "clinical"."immunization_adverse_events" ("immunization_id");`,
    );
    this.addSql(
      `create index "immunization_adverse_events_patient_id_onset_date_index" on "clinical"."immunization_adverse_events" ("patient_id", "onset_date");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."immunizations" cascade;`);

    this.addSql(`drop table if exists "clinical"."immunization_adverse_events" cascade;`);
  }
}
