import { Migration } from '@mikro-orm/migrations';

export class Migration20261124021429 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "org"."feedback" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "category" text check ("category" in ('service', 'appointment', 'staff', 'facility', 'billing', 'platform', 'other')) not null, "rating" smallint not null, "message" text not null, "organization_id" uuid null, "appointment_id" uuid null, "anonymous" boolean not null, "submitted_by" uuid null, "status" text check ("status" in ('new', 'triaged', 'resolved')) not null default 'new', "resolution_note" text null, "triaged_by" uuid null, "triaged_at" timestamptz null, "resolved_by" uuid null, "resolved_at" timestamptz null, constraint "feedback_pkey" primary key ("id"), constraint feedback_rating_check check (rating between 1 and 5));`,
    );
    this.addSql(`create index "feedback_status_created_at_index" on "org"."feedback" ("status", "created_at");`);
    this.addSql(`create index "feedback_submitted_by_created_at_index" on "org"."feedback" ("submitted_by", "created_at");`);
    this.addSql(`create index "feedback_organization_id_created_at_index" on "org"."feedback" ("organization_id", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "org"."feedback" cascade;`);
  }
}
