import { Migration } from '@mikro-orm/migrations';

/** Mails queued by events, each sent once. */
export class Migration20261124023016 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "org"."queued_mails" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "key" text not null, "to_address" text not null, "subject" text not null, "text" text not null, "template" text not null, "data" jsonb null, "state" text not null default 'queued', "sent_at" timestamptz null, "sent_mail_id" uuid null, constraint "queued_mails_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "org"."queued_mails" add constraint "queued_mails_key_unique" unique ("key");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "org"."queued_mails" cascade;`);
  }
}
