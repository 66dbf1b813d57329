import { Migration } from '@mikro-orm/migrations';

export class Migration20261124021006 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "org"."workforce_coverage_requirements" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "roster_id" uuid null, "shift_type_id" uuid not null, "day_of_week" text check ("day_of_week" in ('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday')) null, "min_staff" int not null, "skill_requirements" jsonb not null, constraint "workforce_coverage_requirements_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "workforce_coverage_requirements_roster_id_index" on "org"."workforce_coverage_requirements" ("roster_id");`);
    this.addSql(
      `create unique index "workforce_coverage_requirements_unique" on "org"."workforce_coverage_requirements" ("organization_id", coalesce("roster_id", '00000000-0000-0000-0000-000000000000'), "shift_type_id", coalesce("day_of_week", 'every_day'));`,
    );

    this.addSql(
      `create table "org"."workforce_rosters" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "name" text not null, "start_date" date not null, "end_date" date not null, "status" text check ("status" in ('draft', 'generated', 'approved', 'published')) not null default 'draft', "member_ids" text[] null, "shift_type_ids" text[] null, "generation_status" text check ("generation_status" in ('not_started', 'queued', 'running', 'succeeded', 'failed')) not null default 'not_started', "generation_progress" int not null default 0, "generation_id" uuid null, "generation_error" text null, "generation_requested_at" timestamptz null, "generated_at" timestamptz null, "solver_status" text null, "solve_seconds" double precision null, "requirements_total" int null, "requirements_met" int null, "places_total" int null, "places_filled" int null, "coverage" jsonb null, "created_by" uuid null, "approved_by" uuid null, "approved_at" timestamptz null, "published_by" uuid null, "published_at" timestamptz null, constraint "workforce_rosters_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "workforce_rosters_organization_id_start_date_index" on "org"."workforce_rosters" ("organization_id", "start_date");`,
    );

    this.addSql(
      `create table "org"."workforce_assignments" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "roster_id" uuid not null, "member_id" uuid not null, "shift_type_id" uuid not null, "date" date not null, "start_time" text not null, "end_time" text not null, "duration_minutes" int not null, "is_night" boolean not null, "is_weekend" boolean not null, "status" text check ("status" in ('active', 'removed')) not null default 'active', "source" text check ("source" in ('generated', 'swap')) not null default 'generated', "swap_request_id" uuid null, "removed_reason" text null, "leave_request_id" uuid null, "removed_at" timestamptz null, constraint "workforce_assignments_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "workforce_assignments_member_id_date_index" on "org"."workforce_assignments" ("member_id", "date");`);
    this.addSql(`create index "workforce_assignments_roster_id_date_index" on "org"."workforce_assignments" ("roster_id", "date");`);

    this.addSql(
      `create table "org"."workforce_shift_types" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "name" text not null, "start_time" text not null, "end_time" text not null, "crosses_midnight" boolean not null, "duration_minutes" int not null, "is_night" boolean not null, "required_skills" text[] not null default '{}', constraint "workforce_shift_types_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create unique index "workforce_shift_types_name_unique" on "org"."workforce_shift_types" ("organization_id", lower("name"));`,
    );

    this.addSql(
      `create table "org"."workforce_swap_requests" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "roster_id" uuid not null, "assignment_id" uuid not null, "requester_member_id" uuid not null, "target_member_id" uuid not null, "target_assignment_id" uuid null, "status" text check ("status" in ('pending', 'accepted', 'rejected', 'cancelled')) not null default 'pending', "reason" text null, "requested_by" uuid not null, "decided_by" uuid null, "decided_at" timestamptz null, "cancel_reason" text null, constraint "workforce_swap_requests_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create unique index "workforce_swap_requests_pending_unique" on "org"."workforce_swap_requests" ("assignment_id") where "status" = 'pending';`,
    );
    this.addSql(
      `create index "workforce_swap_requests_organization_id_created_at_index" on "org"."workforce_swap_requests" ("organization_id", "created_at");`,
    );

    this.addSql(
      `create table "org"."workforce_members" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "user_id" uuid null, "name" text not null, "email" text null, "role" text not null, "contracted_hours_per_week" double precision not null, "skills" text[] not null default '{}', "night_eligible" boolean not null default true, "weekend_eligible" boolean not null default true, "created_by" uuid null, constraint "workforce_members_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create unique index "workforce_members_user_unique" on "org"."workforce_members" ("organization_id", "user_id") where "user_id" is not null;`,
    );
    this.addSql(`create index "workforce_members_organization_id_name_index" on "org"."workforce_members" ("organization_id", "name");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "org"."workforce_coverage_requirements" cascade;`);

    this.addSql(`drop table if exists "org"."workforce_rosters" cascade;`);

    this.addSql(`drop table if exists "org"."workforce_assignments" cascade;`);

    this.addSql(`drop table if exists "org"."workforce_shift_types" cascade;`);

    this.addSql(`drop table if exists "org"."workforce_swap_requests" cascade;`);

    this.addSql(`drop table if exists "org"."workforce_members" cascade;`);
  }
}
