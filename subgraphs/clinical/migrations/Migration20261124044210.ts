import { Migration } from '@mikro-orm/migrations';

export class Migration20261124044210 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "clinical"."audit_events" add column "resource_ids" text[] null, add column "patient_ids" text[] null;`);
    this.addSql(`create index "audit_events_resource_ids_index" on "clinical"."audit_events" using gin ("resource_ids");`);
    this.addSql(`create index "audit_events_patient_ids_index" on "clinical"."audit_events" using gin ("patient_ids");`);

    this.addSql(`create index "patients_org_newest_index" on "clinical"."patients" ("organization_id", "created_at" desc, "id");`);
    this.addSql(
      `create index "patients_org_first_name_prefix_index" on "clinical"."patients" ("organization_id", lower("first_name") text_pattern_ops);`,
    );
    this.addSql(
      `create index "patients_org_last_name_prefix_index" on "clinical"."patients" ("organization_id", lower("last_name") text_pattern_ops);`,
    );
    this.addSql(
      `create index "patients_org_mrn_prefix_index" on "clinical"."patients" ("organization_id", lower("mrn") text_pattern_ops);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "clinical"."audit_events_resource_ids_index";`);
    this.addSql(`drop index "clinical"."audit_events_patient_ids_index";`);
    this.addSql(`alter table "clinical"."audit_events" drop column "resource_ids", drop column "patient_ids";`);

    this.addSql(`drop index "clinical"."patients_org_newest_index";`);
    this.addSql(`drop index "clinical"."patients_org_first_name_prefix_index";`);
    this.addSql(`drop index "clinical"."patients_org_last_name_prefix_index";`);
    this.addSql(`drop index "clinical"."patients_org_mrn_prefix_index";`);
  }
}
