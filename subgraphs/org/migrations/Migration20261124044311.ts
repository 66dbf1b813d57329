import { Migration } from '@mikro-orm/migrations';

export class Migration20261124044311 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "org"."audit_events" add column "resource_ids" text[] null, add column "patient_ids" text[] null;`);
    this.addSql(`create index "audit_events_resource_ids_index" on "org"."audit_events" using gin ("resource_ids");`);
    this.addSql(`create index "audit_events_patient_ids_index" on "org"."audit_events" using gin ("patient_ids");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "org"."audit_events_resource_ids_index";`);
    this.addSql(`drop index "org"."audit_events_patient_ids_index";`);
    this.addSql(`alter table "org"."audit_events" drop column "resource_ids", drop column "patient_ids";`);
  }
}
