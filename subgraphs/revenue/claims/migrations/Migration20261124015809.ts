import { Migration } from '@mikro-orm/migrations';

/** Claims (FHIR Claim with its adjudication), their eligibility checks and fraud flags. */
export class Migration20261124015809 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "revenue"."claims" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "number" text not null, "patient_id" uuid not null, "practitioner_id" uuid null, "policy_id" uuid not null, "payer_id" uuid not null, "plan_id" uuid not null, "status" text check ("status" in ('draft', 'submitted', 'in_review', 'approved', 'partially_approved', 'denied', 'paid')) not null default 'draft', "type" text check ("type" in ('institutional', 'professional', 'pharmacy', 'oral', 'vision')) not null default 'professional', "currency" text not null, "diagnoses" jsonb not null, "items" jsonb not null, "total_amount" numeric not null, "approved_amount" numeric null, "paid_amount" numeric not null, "notes" text null, "created_by" uuid not null, "submitted_at" timestamptz null, "submitted_by" uuid null, "payer_claim_id" text null, "review_started_at" timestamptz null, "adjudicated_at" timestamptz null, "adjudication_outcome" text check ("adjudication_outcome" in ('approved', 'partially_approved', 'denied')) null, "adjudication_reason" text null, "paid_at" timestamptz null, "payment_reference" text null, "preauth_status" text check ("preauth_status" in ('approved', 'denied', 'pending')) null, "preauth_number" text null, "preauth_reason" text null, "preauth_amount" numeric null, "preauth_at" timestamptz null, constraint "claims_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "claims_patient_id_index" on "revenue"."claims" ("patient_id");`);
    this.addSql(`create index "claims_policy_id_index" on "revenue"."claims" ("policy_id");`);
    this.addSql(`create index "claims_payer_id_status_index" on "revenue"."claims" ("payer_id", "status");`);
    this.addSql(`create index "claims_organization_id_created_at_index" on "revenue"."claims" ("organization_id", "created_at");`);
    this.addSql(
      `alter table "revenue"."claims" add constraint "claims_organization_id_number_unique" unique ("organization_id", "number");`,
    );
    this.addSql(
      `create table "revenue"."claim_eligibility_checks" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "claim_id" uuid not null, "policy_id" uuid not null, "payer_id" uuid not null, "plan_id" uuid not null, "serviced_date" date not null, "inforce" boolean not null, "benefit_period_start" date null, "benefit_period_end" date null, "currency" text not null, "cover_allowed" numeric not null, "cover_used" numeric not null, "cover_remaining" numeric not null, "benefits" jsonb not null, "disposition" text null, "checked_by" uuid not null, constraint "claim_eligibility_checks_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "claim_eligibility_checks_claim_id_index" on "revenue"."claim_eligibility_checks" ("claim_id");`);
    this.addSql(
      `create table "revenue"."claim_fraud_flags" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "claim_id" uuid not null, "organization_id" uuid not null, "patient_id" uuid not null, "payer_id" uuid not null, "rule" text check ("rule" in ('duplicate_claim', 'amount_outlier', 'service_after_policy_end', 'unbundled_codes')) not null, "fingerprint" text not null, "summary" text not null, "evidence" jsonb not null, constraint "claim_fraud_flags_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "claim_fraud_flags_claim_id_index" on "revenue"."claim_fraud_flags" ("claim_id");`);
    this.addSql(
      `create index "claim_fraud_flags_organization_id_created_at_index" on "revenue"."claim_fraud_flags" ("organization_id", "created_at");`,
    );
    this.addSql(
      `alter table "revenue"."claim_fraud_flags" add constraint "claim_fraud_flags_claim_id_rule_fingerprint_unique" unique ("claim_id", "rule", "fingerprint");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "revenue"."claims" cascade;`);
    this.addSql(`drop table if exists "revenue"."claim_eligibility_checks" cascade;`);
    this.addSql(`drop table if exists "revenue"."claim_fraud_flags" cascade;`);
  }
}
