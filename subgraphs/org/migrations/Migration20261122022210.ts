import { Migration } from '@mikro-orm/migrations';

export class Migration20261122022210 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "org"."conversations" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "subject" text not null, "patient_id" uuid null, "created_by" uuid not null, "last_message_at" timestamptz null, "last_activity_at" timestamptz not null, constraint "conversations_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "conversations_organization_id_last_activity_at_index" on "org"."conversations" ("organization_id", "last_activity_at");`,
    );

    this.addSql(
      `create table "org"."conversation_messages" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "conversation_id" uuid not null, "sender_id" uuid not null, "body" text not null, constraint "conversation_messages_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "conversation_messages_conversation_id_created_at_index" on "org"."conversation_messages" ("conversation_id", "created_at");`,
    );

    this.addSql(
      `create table "org"."conversation_participants" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "conversation_id" uuid not null, "user_id" uuid not null, "last_read_at" timestamptz null, constraint "conversation_participants_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "conversation_participants_user_id_index" on "org"."conversation_participants" ("user_id");`);
    this.addSql(
      `alter table "org"."conversation_participants" add constraint "conversation_participants_conversation_id_user_id_unique" unique ("conversation_id", "user_id");`,
    );

    this.addSql(
      `create table "org"."rooms" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "name" text not null, "name_key" text not null, "type" text check ("type" in ('consultation', 'ward', 'icu', 'operating_theatre', 'emergency', 'laboratory', 'imaging', 'isolation', 'other')) not null, "capacity" int not null default 1, "floor" text null, "ward" text null, "department" text null, "status" text check ("status" in ('available', 'maintenance', 'closed')) not null default 'available', "created_by" uuid not null, constraint "rooms_pkey" primary key ("id"), constraint rooms_capacity_check check (capacity between 1 and 500));`,
    );
    this.addSql(`create index "rooms_organization_id_index" on "org"."rooms" ("organization_id");`);
    this.addSql(`alter table "org"."rooms" add constraint "rooms_organization_id_name_key_unique" unique ("organization_id", "name_key");`);

    this.addSql(
      `create table "org"."admissions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "patient_id" uuid not null, "room_id" uuid not null, "status" text check ("status" in ('admitted', 'discharged')) not null default 'admitted', "reason" text null, "attending_doctor_id" uuid null, "admitted_at" timestamptz not null, "admitted_by" uuid not null, "notes" text null, "discharged_at" timestamptz null, "discharged_by" uuid null, "discharge_summary" text null, "disposition" text check ("disposition" in ('home', 'transferred_out', 'deceased', 'against_medical_advice', 'other')) null, "active_patient_id" uuid null, constraint "admissions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "admissions_patient_id_index" on "org"."admissions" ("patient_id");`);
    this.addSql(`create index "admissions_room_id_status_index" on "org"."admissions" ("room_id", "status");`);
    this.addSql(`create index "admissions_organization_id_admitted_at_index" on "org"."admissions" ("organization_id", "admitted_at");`);
    this.addSql(
      `alter table "org"."admissions" add constraint "admissions_organization_id_active_patient_id_unique" unique ("organization_id", "active_patient_id");`,
    );

    this.addSql(
      `create table "org"."admission_transfers" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "admission_id" uuid not null, "from_room_id" uuid not null, "to_room_id" uuid not null, "transferred_at" timestamptz not null, "transferred_by" uuid not null, "reason" text null, constraint "admission_transfers_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "admission_transfers_admission_id_index" on "org"."admission_transfers" ("admission_id");`);

    this.addSql(
      `alter table "org"."conversation_messages" add constraint "conversation_messages_conversation_id_foreign" foreign key ("conversation_id") references "org"."conversations" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "org"."conversation_participants" add constraint "conversation_participants_conversation_id_foreign" foreign key ("conversation_id") references "org"."conversations" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "org"."admissions" add constraint "admissions_room_id_foreign" foreign key ("room_id") references "org"."rooms" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "org"."admission_transfers" add constraint "admission_transfers_admission_id_foreign" foreign key ("admission_id") references "org"."admissions" ("id") on update cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "org"."conversation_messages" drop constraint "conversation_messages_conversation_id_foreign";`);

    this.addSql(`alter table "org"."conversation_participants" drop constraint "conversation_participants_conversation_id_foreign";`);

    this.addSql(`alter table "org"."admissions" drop constraint "admissions_room_id_foreign";`);

    this.addSql(`alter table "org"."admission_transfers" drop constraint "admission_transfers_admission_id_foreign";`);

    this.addSql(`drop table if exists "org"."conversations" cascade;`);

    this.addSql(`drop table if exists "org"."conversation_messages" cascade;`);

    this.addSql(`drop table if exists "org"."conversation_participants" cascade;`);

    this.addSql(`drop table if exists "org"."rooms" cascade;`);

    this.addSql(`drop table if exists "org"."admissions" cascade;`);

    this.addSql(`drop table if exists "org"."admission_transfers" cascade;`);
  }
}
