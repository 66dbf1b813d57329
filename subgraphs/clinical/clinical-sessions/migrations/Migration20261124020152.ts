import { Migration } from '@mikro-orm/migrations';

export class Migration20261124020152 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."session_action_items" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "recording_id" uuid null, "extraction_id" uuid null, "title" text not null, "description" text null, "assignee_id" uuid null, "due_date" date null, "priority" text check ("priority" in ('low', 'normal', 'high', 'urgent')) not null default 'normal', "status" text check ("status" in ('open', 'done', 'cancelled')) not null default 'open', "created_by" uuid not null, "completed_by" uuid null, "completed_at" timestamptz null, "cancelled_by" uuid null, "cancelled_at" timestamptz null, "cancellation_reason" text null, constraint "session_action_items_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "session_action_items_organization_id_index" on "clinical"."session_action_items" ("organization_id");`);
    this.addSql(
      `create index "session_action_items_assignee_id_status_index" on "clinical"."session_action_items" ("assignee_id", "status");`,
    );
    this.addSql(
      `create index "session_action_items_patient_id_created_at_index" on "clinical"."session_action_items" ("patient_id", "created_at");`,
    );

    this.addSql(
      `create table "clinical"."session_extractions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "transcript_id" uuid null, "recording_id" uuid null, "status" text check ("status" in ('proposed', 'committed')) not null default 'proposed', "source_text" text not null, "extractor" text not null, "items" jsonb not null, "created_by" uuid not null, "committed_by" uuid null, "committed_at" timestamptz null, constraint "session_extractions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "session_extractions_organization_id_index" on "clinical"."session_extractions" ("organization_id");`);
    this.addSql(
      `create index "session_extractions_patient_id_created_at_index" on "clinical"."session_extractions" ("patient_id", "created_at");`,
    );

    this.addSql(
      `create table "clinical"."session_recordings" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "kind" text check ("kind" in ('consultation', 'dictation')) not null default 'consultation', "title" text null, "appointment_id" uuid null, "dictation_id" uuid null, "clinician_id" uuid not null, "status" text check ("status" in ('recording', 'uploaded', 'ready', 'failed')) not null default 'recording', "content_type" text null, "size_bytes" double precision null, "checksum_sha256" text null, "storage_key" text null, "duration_seconds" double precision null, "uploaded_at" timestamptz null, "ready_at" timestamptz null, "failure_reason" text null, constraint "session_recordings_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "session_recordings_organization_id_index" on "clinical"."session_recordings" ("organization_id");`);
    this.addSql(
      `create index "session_recordings_patient_id_created_at_index" on "clinical"."session_recordings" ("patient_id", "created_at");`,
    );
    this.addSql(
      `create index "session_recordings_clinician_id_created_at_index" on "clinical"."session_recordings" ("clinician_id", "created_at");`,
    );

    this.addSql(
      `create table "clinical"."session_transcripts" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "recording_id" uuid not null, "status" text check ("status" in ('pending', 'completed', 'failed')) not null default 'pending', "status_detail" text null, "source" text check ("source" in ('speech_to_text', 'submitted')) null, "model" text null, "language" text null, "text" text null, "segments" jsonb not null, "attempts" int not null default 0, "requested_by" uuid not null, "submitted_by" uuid null, "completed_at" timestamptz null, constraint "session_transcripts_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "session_transcripts_organization_id_index" on "clinical"."session_transcripts" ("organization_id");`);
    this.addSql(
      `create index "session_transcripts_recording_id_created_at_index" on "clinical"."session_transcripts" ("recording_id", "created_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."session_action_items" cascade;`);

    this.addSql(`drop table if exists "clinical"."session_extractions" cascade;`);

    this.addSql(`drop table if exists "clinical"."session_recordings" cascade;`);

    this.addSql(`drop table if exists "clinical"."session_transcripts" cascade;`);
  }
}
