import { Migration } from '@mikro-orm/migrations';

export class Migration20261124014652 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."mpi_records" ("id" uuid not null, "organization_id" uuid null, "mrn" text null, "given_name" text not null, "family_name" text not null, "birth_date" text not null, "gender" text null, "phone" text null, "national_id" text null, "national_id_country" text null, "source_updated_at" timestamptz not null, "indexed_at" timestamptz not null, constraint "mpi_records_pkey" primary key ("id"));`,
    );

    this.addSql(
      `create table "clinical"."mpi_blocking_keys" ("key" text not null, "record_id" uuid not null, constraint "mpi_blocking_keys_pkey" primary key ("key", "record_id"));`,
    );
    this.addSql(`create index "mpi_blocking_keys_record_id_index" on "clinical"."mpi_blocking_keys" ("record_id");`);

    this.addSql(
      `create table "clinical"."mpi_links" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "linked_patient_id" uuid not null, "status" text check ("status" in ('pending_review', 'linked', 'rejected', 'unlinked')) not null, "origin" text check ("origin" in ('matcher', 'person')) not null, "score" double precision null, "contributions" jsonb not null, "identifier_agrees" boolean not null default false, "twin_suspected" boolean not null default false, "proposed_by" uuid null, "decided_by" uuid null, "decided_at" timestamptz null, "reason" text null, constraint "mpi_links_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "mpi_links_linked_patient_id_index" on "clinical"."mpi_links" ("linked_patient_id");`);
    this.addSql(`create index "mpi_links_status_score_index" on "clinical"."mpi_links" ("status", "score");`);
    this.addSql(
      `alter table "clinical"."mpi_links" add constraint "mpi_links_patient_id_linked_patient_id_unique" unique ("patient_id", "linked_patient_id");`,
    );

    this.addSql(
      `create table "clinical"."mpi_link_events" ("id" uuid not null, "link_id" uuid not null, "action" text check ("action" in ('proposed', 'auto_linked', 'linked', 'approved', 'rejected', 'unlinked')) not null, "from_status" text check ("from_status" in ('pending_review', 'linked', 'rejected', 'unlinked')) null, "to_status" text check ("to_status" in ('pending_review', 'linked', 'rejected', 'unlinked')) not null, "actor_id" uuid null, "reason" text null, "score" double precision null, "created_at" timestamptz not null, constraint "mpi_link_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "mpi_link_events_link_id_created_at_index" on "clinical"."mpi_link_events" ("link_id", "created_at");`);

    this.addSql(
      `alter table "clinical"."mpi_blocking_keys" add constraint "mpi_blocking_keys_record_id_foreign" foreign key ("record_id") references "clinical"."mpi_records" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "clinical"."mpi_link_events" add constraint "mpi_link_events_link_id_foreign" foreign key ("link_id") references "clinical"."mpi_links" ("id") on update cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "clinical"."mpi_blocking_keys" drop constraint "mpi_blocking_keys_record_id_foreign";`);

    this.addSql(`alter table "clinical"."mpi_link_events" drop constraint "mpi_link_events_link_id_foreign";`);

    this.addSql(`drop table if exists "clinical"."mpi_records" cascade;`);

    this.addSql(`drop table if exists "clinical"."mpi_blocking_keys" cascade;`);

    this.addSql(`drop table if exists "clinical"."mpi_links" cascade;`);

    this.addSql(`drop table if exists "clinical"."mpi_link_events" cascade;`);
  }
}
