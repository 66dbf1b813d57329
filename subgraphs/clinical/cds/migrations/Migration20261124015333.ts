import { Migration } from '@mikro-orm/migrations';

export class Migration20261124015333 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."adverse_events" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "suspected_drug" text not null, "rxcui" text null, "ingredients" jsonb not null, "reaction" text not null, "onset_date" date null, "seriousness_criteria" jsonb not null, "serious" boolean not null, "severity" text check ("severity" in ('mild', 'moderate', 'severe')) null, "outcome" text check ("outcome" in ('recovered', 'recovering', 'not_recovered', 'recovered_with_sequelae', 'fatal', 'unknown')) not null, "causality" text check ("causality" in ('certain', 'probable', 'possible', 'unlikely', 'conditional', 'unassessable')) null, "action_taken" text check ("action_taken" in ('drug_withdrawn', 'dose_reduced', 'dose_increased', 'dose_not_changed', 'not_applicable', 'unknown')) null, "description" text null, "reported_by" uuid not null, constraint "adverse_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "adverse_events_organization_id_index" on "clinical"."adverse_events" ("organization_id");`);
    this.addSql(`create index "adverse_events_patient_id_created_at_index" on "clinical"."adverse_events" ("patient_id", "created_at");`);

    this.addSql(
      `create table "clinical"."cds_alerts" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "kind" text check ("kind" in ('critical_card', 'critical_score')) not null, "source" text not null, "level" text not null, "summary" text not null, "detail" text null, "dedupe_key" text not null, "hook_instance" text null, "raised_by" uuid null, constraint "cds_alerts_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "cds_alerts_organization_id_index" on "clinical"."cds_alerts" ("organization_id");`);
    this.addSql(`alter table "clinical"."cds_alerts" add constraint "cds_alerts_dedupe_key_unique" unique ("dedupe_key");`);
    this.addSql(`create index "cds_alerts_patient_id_created_at_index" on "clinical"."cds_alerts" ("patient_id", "created_at");`);

    this.addSql(
      `create table "clinical"."drug_interaction_rules" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "pair_key" text not null, "side_a" text not null, "side_b" text not null, "severity" text check ("severity" in ('contraindicated', 'major', 'moderate', 'minor')) not null, "description" text not null, "recommendation" text not null, "source" text not null, "origin" text check ("origin" in ('shipped', 'administrator')) not null, "updated_by" uuid null, constraint "drug_interaction_rules_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "clinical"."drug_interaction_rules" add constraint "drug_interaction_rules_pair_key_unique" unique ("pair_key");`,
    );
    this.addSql(`create index "drug_interaction_rules_side_a_index" on "clinical"."drug_interaction_rules" ("side_a");`);
    this.addSql(`create index "drug_interaction_rules_side_b_index" on "clinical"."drug_interaction_rules" ("side_b");`);

    this.addSql(
      `create table "clinical"."early_warning_scores" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "patient_id" uuid not null, "organization_id" uuid null, "total" int not null, "risk" text check ("risk" in ('low', 'low_medium', 'medium', 'high')) not null, "red_score" boolean not null, "spo2_scale" int not null, "parameters" jsonb not null, "monitoring_frequency" text not null, "response" text not null, "observed_at" timestamptz not null, "vital_id" uuid null, "computed_by" uuid not null, constraint "early_warning_scores_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "early_warning_scores_organization_id_index" on "clinical"."early_warning_scores" ("organization_id");`);
    this.addSql(
      `create index "early_warning_scores_patient_id_observed_at_index" on "clinical"."early_warning_scores" ("patient_id", "observed_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."adverse_events" cascade;`);

    this.addSql(`drop table if exists "clinical"."cds_alerts" cascade;`);

    this.addSql(`drop table if exists "clinical"."drug_interaction_rules" cascade;`);

    this.addSql(`drop table if exists "clinical"."early_warning_scores" cascade;`);
  }
}
