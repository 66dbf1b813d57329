import { Migration } from '@mikro-orm/migrations';

export class Migration20261122005627 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "org"."dead_letters" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "event_id" text not null, "topic" text not null, "queue" text not null, "original_payload" text not null, "envelope" jsonb null, "error" text not null, "attempts" int not null, constraint "dead_letters_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "dead_letters_event_id_index" on "org"."dead_letters" ("event_id");`);
    this.addSql(`create index "dead_letters_topic_index" on "org"."dead_letters" ("topic");`);

    this.addSql(
      `create table "org"."doctor_profiles" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "user_id" uuid not null, "first_name" text not null, "last_name" text not null, "email" text not null, "verification_status" text check ("verification_status" in ('pending', 'approved', 'rejected')) not null default 'pending', constraint "doctor_profiles_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "org"."doctor_profiles" add constraint "doctor_profiles_user_id_unique" unique ("user_id");`);
    this.addSql(`create index "doctor_profiles_verification_status_index" on "org"."doctor_profiles" ("verification_status");`);

    this.addSql(
      `create table "org"."leads" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "external_id" text not null, "source" text not null, "name" text null, "email" text null, "phone" text null, "organization_name" text null, "message" text null, "fields" jsonb not null, constraint "leads_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "org"."leads" add constraint "leads_external_id_unique" unique ("external_id");`);
    this.addSql(`create index "leads_email_index" on "org"."leads" ("email");`);

    this.addSql(
      `create table "org"."mail_events" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "provider_event_id" text not null, "sent_mail_id" uuid null, "provider_message_id" text not null, "type" text not null, "occurred_at" timestamptz not null, constraint "mail_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "mail_events_sent_mail_id_index" on "org"."mail_events" ("sent_mail_id");`);
    this.addSql(`alter table "org"."mail_events" add constraint "mail_events_provider_event_id_unique" unique ("provider_event_id");`);

    this.addSql(
      `create table "org"."messaging_messages" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "provider_message_id" text not null, "from_phone" text not null, "to_phone" text null, "kind" text not null, "body" text null, "sent_at" timestamptz not null, constraint "messaging_messages_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "org"."messaging_messages" add constraint "messaging_messages_provider_message_id_unique" unique ("provider_message_id");`,
    );
    this.addSql(`create index "messaging_messages_from_phone_index" on "org"."messaging_messages" ("from_phone");`);

    this.addSql(
      `create table "org"."messaging_receipts" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "provider_message_id" text not null, "status" text not null, "recipient" text null, "occurred_at" timestamptz not null, constraint "messaging_receipts_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "messaging_receipts_provider_message_id_index" on "org"."messaging_receipts" ("provider_message_id");`);
    this.addSql(
      `alter table "org"."messaging_receipts" add constraint "messaging_receipts_provider_message_id_status_unique" unique ("provider_message_id", "status");`,
    );

    this.addSql(
      `create table "org"."doctor_organizations" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "doctor_id" uuid not null, "organization_id" uuid not null, "role" text not null, constraint "doctor_organizations_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "doctor_organizations_organization_id_index" on "org"."doctor_organizations" ("organization_id");`);
    this.addSql(
      `alter table "org"."doctor_organizations" add constraint "doctor_organizations_doctor_id_organization_id_unique" unique ("doctor_id", "organization_id");`,
    );

    this.addSql(
      `create table "org"."processed_events" ("consumer" text not null, "event_id" text not null, "processed_at" timestamptz not null, constraint "processed_events_pkey" primary key ("consumer", "event_id"));`,
    );

    this.addSql(
      `create table "org"."sent_mails" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "provider_message_id" text not null, "to_address" text not null, "template" text not null, "status" text not null default 'sent', constraint "sent_mails_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "org"."sent_mails" add constraint "sent_mails_provider_message_id_unique" unique ("provider_message_id");`);
    this.addSql(`create index "sent_mails_to_address_index" on "org"."sent_mails" ("to_address");`);

    this.addSql(
      `create table "org"."webhook_deliveries" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "provider" text not null, "provider_event_id" text not null, "event_type" text null, "raw_body" text not null, constraint "webhook_deliveries_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "org"."webhook_deliveries" add constraint "webhook_deliveries_provider_provider_event_id_unique" unique ("provider", "provider_event_id");`,
    );

    this.addSql(
      `alter table "org"."doctor_organizations" add constraint "doctor_organizations_doctor_id_foreign" foreign key ("doctor_id") references "org"."doctor_profiles" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "org"."doctor_organizations" add constraint "doctor_organizations_organization_id_foreign" foreign key ("organization_id") references "org"."organizations" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "org"."organizations" add column "billing_customer_id" text null, add column "subscription_id" text null, add column "subscription_status" text null, add column "subscription_plan" text null, add column "subscription_period_end" timestamptz null, add column "last_payment_status" text null, add column "last_payment_at" timestamptz null;`,
    );
    this.addSql(`create index "organizations_billing_customer_id_index" on "org"."organizations" ("billing_customer_id");`);
    this.addSql(`create index "organizations_subscription_id_index" on "org"."organizations" ("subscription_id");`);

    this.addSql(`create index "outbox_published_at_created_at_index" on "org"."outbox" ("published_at", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "org"."doctor_organizations" drop constraint "doctor_organizations_doctor_id_foreign";`);

    this.addSql(`drop table if exists "org"."dead_letters" cascade;`);

    this.addSql(`drop table if exists "org"."doctor_profiles" cascade;`);

    this.addSql(`drop table if exists "org"."leads" cascade;`);

    this.addSql(`drop table if exists "org"."mail_events" cascade;`);

    this.addSql(`drop table if exists "org"."messaging_messages" cascade;`);

    this.addSql(`drop table if exists "org"."messaging_receipts" cascade;`);

    this.addSql(`drop table if exists "org"."doctor_organizations" cascade;`);

    this.addSql(`drop table if exists "org"."processed_events" cascade;`);

    this.addSql(`drop table if exists "org"."sent_mails" cascade;`);

    this.addSql(`drop table if exists "org"."webhook_deliveries" cascade;`);

    this.addSql(`drop index "org"."organizations_billing_customer_id_index";`);
    this.addSql(`drop index "org"."organizations_subscription_id_index";`);
    this.addSql(
      `alter table "org"."organizations" drop column "billing_customer_id", drop column "subscription_id", drop column "subscription_status", drop column "subscription_plan", drop column "subscription_period_end", drop column "last_payment_status", drop column "last_payment_at";`,
    );

    this.addSql(`drop index "org"."outbox_published_at_created_at_index";`);
  }
}
