import { Migration } from '@mikro-orm/migrations';

export class Migration20261122001247 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "org"."api_keys" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "name" text not null, "scopes" text[] not null, "prefix" text not null, "created_by" uuid not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, constraint "api_keys_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "api_keys_organization_id_index" on "org"."api_keys" ("organization_id");`);

    this.addSql(
      `create table "org"."api_key_secrets" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "api_key_id" uuid not null, "secret_hash" text not null, "valid_until" timestamptz null, constraint "api_key_secrets_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "org"."api_key_secrets" add constraint "api_key_secrets_secret_hash_unique" unique ("secret_hash");`);

    this.addSql(
      `create table "org"."mfa_recovery_codes" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "code_hash" text not null, "used_at" timestamptz null, constraint "mfa_recovery_codes_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "mfa_recovery_codes_user_id_index" on "org"."mfa_recovery_codes" ("user_id");`);

    this.addSql(
      `create table "org"."security_events" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "type" text not null, "actor_id" uuid null, "user_id" uuid null, "organization_id" uuid null, "ip" text null, "user_agent" text null, "details" jsonb not null, constraint "security_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "security_events_type_index" on "org"."security_events" ("type");`);
    this.addSql(`create index "security_events_user_id_created_at_index" on "org"."security_events" ("user_id", "created_at");`);

    this.addSql(
      `create table "org"."user_identities" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "provider" text not null, "subject" text not null, constraint "user_identities_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "user_identities_user_id_index" on "org"."user_identities" ("user_id");`);
    this.addSql(
      `alter table "org"."user_identities" add constraint "user_identities_provider_subject_unique" unique ("provider", "subject");`,
    );

    this.addSql(
      `create table "org"."user_tokens" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "purpose" text check ("purpose" in ('verify_email', 'reset_password')) not null, "token_hash" text not null, "expires_at" timestamptz not null, "used_at" timestamptz null, constraint "user_tokens_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "user_tokens_user_id_index" on "org"."user_tokens" ("user_id");`);
    this.addSql(`alter table "org"."user_tokens" add constraint "user_tokens_token_hash_unique" unique ("token_hash");`);

    this.addSql(
      `alter table "org"."api_key_secrets" add constraint "api_key_secrets_api_key_id_foreign" foreign key ("api_key_id") references "org"."api_keys" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "org"."users" add column "referral_code" text null, add column "referred_by" uuid null, add column "mfa_enabled" boolean not null default false, add column "mfa_secret" text null, add column "mfa_pending_secret" text null, add column "mfa_last_step" bigint null;`,
    );
    // Accounts created before referral codes existed get one now (8 characters, like new accounts).
    this.addSql(
      `update "org"."users" set "referral_code" = upper(substr(md5(random()::text || "id"::text), 1, 8)) where "referral_code" is null;`,
    );
    this.addSql(`alter table "org"."users" alter column "referral_code" set not null;`);
    this.addSql(`alter table "org"."users" add constraint "users_referral_code_unique" unique ("referral_code");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "org"."api_key_secrets" drop constraint "api_key_secrets_api_key_id_foreign";`);

    this.addSql(`drop table if exists "org"."api_keys" cascade;`);

    this.addSql(`drop table if exists "org"."api_key_secrets" cascade;`);

    this.addSql(`drop table if exists "org"."mfa_recovery_codes" cascade;`);

    this.addSql(`drop table if exists "org"."security_events" cascade;`);

    this.addSql(`drop table if exists "org"."user_identities" cascade;`);

    this.addSql(`drop table if exists "org"."user_tokens" cascade;`);

    this.addSql(`alter table "org"."users" drop constraint "users_referral_code_unique";`);
    this.addSql(
      `alter table "org"."users" drop column "referral_code", drop column "referred_by", drop column "mfa_enabled", drop column "mfa_secret", drop column "mfa_pending_secret", drop column "mfa_last_step";`,
    );
  }
}
