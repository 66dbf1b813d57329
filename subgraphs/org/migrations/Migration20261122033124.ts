import { Migration } from '@mikro-orm/migrations';

export class Migration20261122033124 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "org"."video_sessions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "appointment_id" uuid not null, "organization_id" uuid not null, "provider" text not null, "room_name" text not null, "room_sid" text null, "status" text check ("status" in ('created', 'active', 'ended')) not null default 'created', "initiated_by" uuid not null, "started_at" timestamptz null, "ended_at" timestamptz null, "ended_by" uuid null, constraint "video_sessions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "video_sessions_appointment_id_index" on "org"."video_sessions" ("appointment_id");`);
    this.addSql(`create index "video_sessions_organization_id_index" on "org"."video_sessions" ("organization_id");`);
    this.addSql(`alter table "org"."video_sessions" add constraint "video_sessions_room_name_unique" unique ("room_name");`);
    this.addSql(
      `create unique index "video_sessions_one_open_per_appointment" on "org"."video_sessions" ("appointment_id") where "status" in ('created', 'active');`,
    );

    this.addSql(
      `create table "org"."video_participants" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "session_id" uuid not null, "identity" text not null, "name" text null, "role" text check ("role" in ('doctor', 'patient', 'unauthorized')) not null, "joined_at" timestamptz null, "left_at" timestamptz null, "join_count" int not null default 0, "published_tracks" jsonb not null, constraint "video_participants_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "org"."video_participants" add constraint "video_participants_session_id_identity_unique" unique ("session_id", "identity");`,
    );

    this.addSql(
      `alter table "org"."video_participants" add constraint "video_participants_session_id_foreign" foreign key ("session_id") references "org"."video_sessions" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "org"."video_participants" drop constraint "video_participants_session_id_foreign";`);

    this.addSql(`drop table if exists "org"."video_sessions" cascade;`);

    this.addSql(`drop table if exists "org"."video_participants" cascade;`);
  }
}
