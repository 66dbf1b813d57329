import { Migration } from '@mikro-orm/migrations';

/** The insurance marketplace: payers, plans, policies (one open policy per patient and plan). */
export class Migration20261124015808 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "revenue"."insurance_plans" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "payer_id" uuid not null, "name" text not null, "description" text null, "currency" text not null, "premium_amount" numeric not null, "term_months" int not null default 12, "cover_limit" numeric not null, "coinsurance_percent" int not null default 100, "waiting_period_days" int not null default 0, "preauth_threshold" numeric null, "benefits" jsonb not null, "active" boolean not null default true, constraint "insurance_plans_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "insurance_plans_payer_id_index" on "revenue"."insurance_plans" ("payer_id");`);
    this.addSql(
      `create table "revenue"."insurance_policies" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "policy_number" text not null, "plan_id" uuid not null, "payer_id" uuid not null, "patient_id" uuid not null, "organization_id" uuid null, "status" text check ("status" in ('pending_payment', 'active', 'cancelled')) not null default 'pending_payment', "currency" text not null, "premium_amount" numeric not null, "requested_start_date" date null, "start_date" date null, "end_date" date null, "activated_at" timestamptz null, "premium_payment_id" uuid null, "cancelled_at" timestamptz null, "enrolled_by" uuid not null, constraint "insurance_policies_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "insurance_policies_plan_id_index" on "revenue"."insurance_policies" ("plan_id");`);
    this.addSql(`create index "insurance_policies_patient_id_index" on "revenue"."insurance_policies" ("patient_id");`);
    this.addSql(`create index "insurance_policies_organization_id_index" on "revenue"."insurance_policies" ("organization_id");`);
    this.addSql(
      `create unique index "insurance_policies_one_open_per_plan" on "revenue"."insurance_policies" ("patient_id", "plan_id") where "status" in ('pending_payment', 'active');`,
    );
    this.addSql(
      `alter table "revenue"."insurance_policies" add constraint "insurance_policies_policy_number_unique" unique ("policy_number");`,
    );
    this.addSql(
      `create table "revenue"."payers" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "name" text not null, "code" text not null, "adapter" text check ("adapter" in ('sandbox')) not null default 'sandbox', "payment_terms_days" int not null default 30, "country_code" text null, "active" boolean not null default true, constraint "payers_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "revenue"."payers" add constraint "payers_code_unique" unique ("code");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "revenue"."payers" cascade;`);
    this.addSql(`drop table if exists "revenue"."insurance_plans" cascade;`);
    this.addSql(`drop table if exists "revenue"."insurance_policies" cascade;`);
  }
}
