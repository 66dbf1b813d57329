import { Migration } from '@mikro-orm/migrations';

export class Migration20261122032245 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "org"."appointment_requests" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "resource_id" uuid null, "doctor_id" uuid null, "requested_by" uuid not null, "patient_name" text not null, "patient_email" text not null, "patient_phone" text null, "preferred_start" timestamptz not null, "preferred_end" timestamptz not null, "reason" text null, "status" text check ("status" in ('pending', 'approved', 'rejected')) not null default 'pending', "appointment_id" uuid null, "decided_by" uuid null, "decided_at" timestamptz null, "rejection_reason" text null, constraint "appointment_requests_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "appointment_requests_requested_by_index" on "org"."appointment_requests" ("requested_by");`);
    this.addSql(
      `create index "appointment_requests_organization_id_status_created_at_index" on "org"."appointment_requests" ("organization_id", "status", "created_at");`,
    );

    this.addSql(
      `create table "org"."schedulable_resources" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "type" text check ("type" in ('doctor', 'room', 'equipment')) not null, "name" text not null, "doctor_id" uuid null, "room_id" uuid null, "description" text null, "time_zone" text not null default 'UTC', "active" boolean not null default true, "deleted_at" timestamptz null, constraint "schedulable_resources_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "schedulable_resources_doctor_id_index" on "org"."schedulable_resources" ("doctor_id");`);
    this.addSql(
      `create index "schedulable_resources_organization_id_type_index" on "org"."schedulable_resources" ("organization_id", "type");`,
    );

    this.addSql(
      `create table "org"."appointments" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "resource_id" uuid not null, "doctor_id" uuid null, "doctor_user_id" uuid null, "patient_id" uuid null, "patient_user_id" uuid null, "patient_name" text not null, "patient_email" text not null, "patient_phone" text null, "start_time" timestamptz not null, "end_time" timestamptz not null, "reason" text null, "status" text check ("status" in ('booked', 'confirmed', 'checked_in', 'in_progress', 'completed', 'cancelled', 'no_show')) not null default 'booked', "status_reason" text null, "status_changed_at" timestamptz null, "booked_by" uuid null, "cancellation_reason" text null, "cancelled_by" uuid null, "cancelled_at" timestamptz null, "previous_start_time" timestamptz null, "previous_end_time" timestamptz null, "rescheduled_count" int not null default 0, constraint "appointments_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "appointments_doctor_user_id_index" on "org"."appointments" ("doctor_user_id");`);
    this.addSql(`create index "appointments_patient_id_index" on "org"."appointments" ("patient_id");`);
    this.addSql(`create index "appointments_patient_user_id_index" on "org"."appointments" ("patient_user_id");`);
    this.addSql(`create index "appointments_organization_id_start_time_index" on "org"."appointments" ("organization_id", "start_time");`);
    this.addSql(`create index "appointments_resource_id_start_time_index" on "org"."appointments" ("resource_id", "start_time");`);

    this.addSql(
      `create table "org"."schedules" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "resource_id" uuid not null, "organization_id" uuid not null, "days_of_week" jsonb not null, "start_time" text not null, "end_time" text not null, "time_zone" text null, "breaks" jsonb not null, "slot_minutes" int not null default 30, "valid_from" date null, "valid_until" date null, constraint "schedules_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "schedules_resource_id_index" on "org"."schedules" ("resource_id");`);

    this.addSql(
      `alter table "org"."appointments" add constraint "appointments_resource_id_foreign" foreign key ("resource_id") references "org"."schedulable_resources" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "org"."schedules" add constraint "schedules_resource_id_foreign" foreign key ("resource_id") references "org"."schedulable_resources" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "org"."appointments" drop constraint "appointments_resource_id_foreign";`);

    this.addSql(`alter table "org"."schedules" drop constraint "schedules_resource_id_foreign";`);

    this.addSql(`drop table if exists "org"."appointment_requests" cascade;`);

    this.addSql(`drop table if exists "org"."schedulable_resources" cascade;`);

    this.addSql(`drop table if exists "org"."appointments" cascade;`);

    this.addSql(`drop table if exists "org"."schedules" cascade;`);
  }
}
