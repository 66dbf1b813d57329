import { Migration } from '@mikro-orm/migrations';

export class Migration20261121231957 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create schema if not exists "org";`);
    this.addSql(
      `create table "org"."organizations" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "name" text not null, "type" text check ("type" in ('hospital', 'clinic', 'pharmacy', 'laboratory', 'imaging_center', 'insurer', 'supplier', 'other')) not null default 'clinic', "status" text check ("status" in ('pending', 'active', 'suspended', 'closed')) not null default 'active', "email" text null, "phone" text null, "address" text null, "city" text null, "country" text null, "created_by" uuid not null, constraint "organizations_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "organizations_status_index" on "org"."organizations" ("status");`);

    this.addSql(
      `create table "org"."outbox" ("id" uuid not null, "topic" text not null, "payload" jsonb not null, "source_service" text not null, "created_at" timestamptz not null, "published_at" timestamptz null, constraint "outbox_pkey" primary key ("id"));`,
    );

    this.addSql(
      `create table "org"."sessions" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "refresh_token_id" uuid not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, "ip" text null, constraint "sessions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "sessions_user_id_index" on "org"."sessions" ("user_id");`);

    this.addSql(
      `create table "org"."users" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "email" text not null, "password_hash" text null, "first_name" text not null, "last_name" text not null, "registration_role" text not null, "roles" text[] not null default '{}', "status" text check ("status" in ('active', 'suspended')) not null default 'active', "email_verified_at" timestamptz null, "last_login_at" timestamptz null, constraint "users_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "org"."users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`create index "users_status_index" on "org"."users" ("status");`);

    this.addSql(
      `create table "org"."organization_members" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "user_id" uuid not null, "role" text not null, constraint "organization_members_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "organization_members_user_id_index" on "org"."organization_members" ("user_id");`);
    this.addSql(
      `alter table "org"."organization_members" add constraint "organization_members_organization_id_user_id_unique" unique ("organization_id", "user_id");`,
    );

    this.addSql(
      `alter table "org"."organization_members" add constraint "organization_members_organization_id_foreign" foreign key ("organization_id") references "org"."organizations" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "org"."organization_members" add constraint "organization_members_user_id_foreign" foreign key ("user_id") references "org"."users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "org"."organization_members" drop constraint "organization_members_organization_id_foreign";`);

    this.addSql(`alter table "org"."organization_members" drop constraint "organization_members_user_id_foreign";`);

    this.addSql(`drop table if exists "org"."organizations" cascade;`);

    this.addSql(`drop table if exists "org"."outbox" cascade;`);

    this.addSql(`drop table if exists "org"."sessions" cascade;`);

    this.addSql(`drop table if exists "org"."users" cascade;`);

    this.addSql(`drop table if exists "org"."organization_members" cascade;`);

    this.addSql(`drop schema if exists "org";`);
  }
}
