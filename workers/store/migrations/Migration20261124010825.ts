import { Migration } from '@mikro-orm/migrations';

/**
 * The platform's own schema. Dead letters and webhook deliveries used to live in the `org` schema: whichever of
 * this migration and org's Migration20261124010829 runs first moves them here (the other finds nothing to move),
 * so existing entries and the duplicate check of earlier deliveries survive in either order.
 */
export class Migration20261124010825 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create schema if not exists "platform";`);
    this.addSql(`do $$ begin
      if to_regclass('org.dead_letters') is not null and to_regclass('platform.dead_letters') is null then
        alter table "org"."dead_letters" set schema "platform";
      end if;
      if to_regclass('org.webhook_deliveries') is not null and to_regclass('platform.webhook_deliveries') is null then
        alter table "org"."webhook_deliveries" set schema "platform";
      end if;
    end $$;`);
    this.addSql(
      `create table if not exists "platform"."dead_letters" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "event_id" text not null, "topic" text not null, "queue" text not null, "original_payload" text not null, "envelope" jsonb null, "error" text not null, "attempts" int not null, constraint "dead_letters_pkey" primary key ("id"));`,
    );
    this.addSql(`create index if not exists "dead_letters_event_id_index" on "platform"."dead_letters" ("event_id");`);
    this.addSql(`create index if not exists "dead_letters_topic_index" on "platform"."dead_letters" ("topic");`);

    this.addSql(
      `create table "platform"."outbox" ("id" uuid not null, "topic" text not null, "payload" jsonb not null, "source_service" text not null, "created_at" timestamptz not null, "published_at" timestamptz null, constraint "outbox_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "outbox_published_at_created_at_index" on "platform"."outbox" ("published_at", "created_at");`);

    this.addSql(
      `create table if not exists "platform"."webhook_deliveries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "provider" text not null, "provider_event_id" text not null, "event_type" text null, "raw_body" text not null, constraint "webhook_deliveries_pkey" primary key ("id"), constraint "webhook_deliveries_provider_provider_event_id_unique" unique ("provider", "provider_event_id"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "platform"."dead_letters" cascade;`);
    this.addSql(`drop table if exists "platform"."outbox" cascade;`);
    this.addSql(`drop table if exists "platform"."webhook_deliveries" cascade;`);
    this.addSql(`drop schema if exists "platform";`);
  }
}
