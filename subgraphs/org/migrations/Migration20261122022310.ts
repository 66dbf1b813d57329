import { Migration } from '@mikro-orm/migrations';

export class Migration20261122022310 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "org"."attendance_entries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "user_id" uuid not null, "clock_in_at" timestamptz not null, "clock_out_at" timestamptz null, "duration_minutes" int null, "note" text null, "location" text null, "clock_out_note" text null, constraint "attendance_entries_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create unique index "attendance_entries_open_unique" on "org"."attendance_entries" ("organization_id", "user_id") where "clock_out_at" is null;`,
    );
    this.addSql(`create index "attendance_entries_user_id_clock_in_at_index" on "org"."attendance_entries" ("user_id", "clock_in_at");`);
    this.addSql(
      `create index "attendance_entries_organization_id_clock_in_at_index" on "org"."attendance_entries" ("organization_id", "clock_in_at");`,
    );

    this.addSql(
      `create table "org"."leave_requests" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "user_id" uuid not null, "type" text not null, "start_date" date not null, "end_date" date not null, "days" int not null, "reason" text null, "status" text check ("status" in ('pending', 'approved', 'rejected', 'cancelled')) not null default 'pending', "decided_by" uuid null, "decided_at" timestamptz null, "decision_reason" text null, "cancelled_at" timestamptz null, constraint "leave_requests_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "leave_requests_user_id_organization_id_start_date_index" on "org"."leave_requests" ("user_id", "organization_id", "start_date");`,
    );
    this.addSql(
      `create index "leave_requests_organization_id_created_at_index" on "org"."leave_requests" ("organization_id", "created_at");`,
    );

    this.addSql(
      `create table "org"."organization_invitations" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "email" text not null, "role" text not null, "token_hash" text not null, "status" text check ("status" in ('pending', 'accepted', 'revoked', 'expired')) not null default 'pending', "expires_at" timestamptz not null, "invited_by" uuid not null, "accepted_by" uuid null, "accepted_at" timestamptz null, "revoked_by" uuid null, "revoked_at" timestamptz null, constraint "organization_invitations_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "org"."organization_invitations" add constraint "organization_invitations_token_hash_unique" unique ("token_hash");`,
    );
    this.addSql(
      `create unique index "organization_invitations_pending_email_unique" on "org"."organization_invitations" ("organization_id", "email") where "status" = 'pending';`,
    );
    this.addSql(
      `create index "organization_invitations_organization_id_created_at_index" on "org"."organization_invitations" ("organization_id", "created_at");`,
    );

    this.addSql(`alter table "org"."organizations" add column "status_reason" text null, add column "status_changed_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "org"."attendance_entries" cascade;`);

    this.addSql(`drop table if exists "org"."leave_requests" cascade;`);

    this.addSql(`drop table if exists "org"."organization_invitations" cascade;`);

    this.addSql(`alter table "org"."organizations" drop column "status_reason", drop column "status_changed_at";`);
  }
}
