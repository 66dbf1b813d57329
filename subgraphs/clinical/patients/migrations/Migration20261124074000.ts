import { Migration } from '@mikro-orm/migrations';

/** Name search: indexes holding both names (each first in one), replacing the one-name indexes they cover. */
export class Migration20261124074000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "patients_org_last_first_name_prefix_index" on "clinical"."patients" ("organization_id", lower("last_name") text_pattern_ops, lower("first_name") text_pattern_ops);`,
    );
    this.addSql(
      `create index "patients_org_first_last_name_prefix_index" on "clinical"."patients" ("organization_id", lower("first_name") text_pattern_ops, lower("last_name") text_pattern_ops);`,
    );
    this.addSql(`drop index "clinical"."patients_org_first_name_prefix_index";`);
    this.addSql(`drop index "clinical"."patients_org_last_name_prefix_index";`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `create index "patients_org_first_name_prefix_index" on "clinical"."patients" ("organization_id", lower("first_name") text_pattern_ops);`,
    );
    this.addSql(
      `create index "patients_org_last_name_prefix_index" on "clinical"."patients" ("organization_id", lower("last_name") text_pattern_ops);`,
    );
    this.addSql(`drop index "clinical"."patients_org_last_first_name_prefix_index";`);
    this.addSql(`drop index "clinical"."patients_org_first_last_name_prefix_index";`);
  }
}
