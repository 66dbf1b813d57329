import { Migration } from '@mikro-orm/migrations';

export class Migration20261124020217 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."clinical_notes" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "format" text check ("format" in ('soap', 'free_text')) not null, "title" text null, "subjective" text null, "objective" text null, "assessment" text null, "plan" text null, "text" text null, "encounter_id" uuid null, "appointment_id" uuid null, "recording_id" uuid null, "addendum_to_id" uuid null, "status" text check ("status" in ('draft', 'signed')) not null default 'draft', "version" int not null default 1, "author_id" uuid not null, "updated_by" uuid null, "signed_by" uuid null, "signed_at" timestamptz null, constraint "clinical_notes_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "clinical_notes_organization_id_index" on "clinical"."clinical_notes" ("organization_id");`);
    this.addSql(`create index "clinical_notes_addendum_to_id_index" on "clinical"."clinical_notes" ("addendum_to_id");`);
    this.addSql(`create index "clinical_notes_author_id_index" on "clinical"."clinical_notes" ("author_id");`);
    this.addSql(`create index "clinical_notes_patient_id_created_at_index" on "clinical"."clinical_notes" ("patient_id", "created_at");`);

    this.addSql(
      `create table "clinical"."clinical_note_versions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "note_id" uuid not null, "patient_id" uuid not null, "version" int not null, "change" text not null, "snapshot" jsonb not null, "changed_by" uuid not null, constraint "clinical_note_versions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "clinical_note_versions_patient_id_index" on "clinical"."clinical_note_versions" ("patient_id");`);
    this.addSql(
      `alter table "clinical"."clinical_note_versions" add constraint "clinical_note_versions_note_id_version_unique" unique ("note_id", "version");`,
    );

    this.addSql(
      `create table "clinical"."dictation_segments" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "dictation_id" uuid not null, "sequence" int not null, "kind" text check ("kind" in ('text', 'audio')) not null, "typed_text" text null, "recording_id" uuid null, "transcript_id" uuid null, "created_by" uuid not null, constraint "dictation_segments_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "dictation_segments_organization_id_index" on "clinical"."dictation_segments" ("organization_id");`);
    this.addSql(
      `alter table "clinical"."dictation_segments" add constraint "dictation_segments_dictation_id_sequence_unique" unique ("dictation_id", "sequence");`,
    );

    this.addSql(
      `create table "clinical"."dictation_sessions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "title" text null, "note_id" uuid null, "status" text check ("status" in ('active', 'merged')) not null default 'active', "clinician_id" uuid not null, "segment_count" int not null default 0, "merged_note_id" uuid null, "merged_by" uuid null, "merged_at" timestamptz null, constraint "dictation_sessions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "dictation_sessions_organization_id_index" on "clinical"."dictation_sessions" ("organization_id");`);
    this.addSql(
      `create index "dictation_sessions_patient_id_created_at_index" on "clinical"."dictation_sessions" ("patient_id", "created_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."clinical_notes" cascade;`);

    this.addSql(`drop table if exists "clinical"."clinical_note_versions" cascade;`);

    this.addSql(`drop table if exists "clinical"."dictation_segments" cascade;`);

    this.addSql(`drop table if exists "clinical"."dictation_sessions" cascade;`);
  }
}
