import { Migration } from '@mikro-orm/migrations';

export class Migration20261122015942 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "journey_events_organization_id_index" on "clinical"."journey_events" ("organization_id");`);

    this.addSql(`create index "lab_orders_organization_id_index" on "clinical"."lab_orders" ("organization_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "clinical"."journey_events_organization_id_index";`);

    this.addSql(`drop index "clinical"."lab_orders_organization_id_index";`);
  }
}
