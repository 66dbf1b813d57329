import { Migration } from '@mikro-orm/migrations';

/** The two NEWS2 inputs a vital signs record lacked: ACVPU and supplemental oxygen; existing records hold neither (null). */
export class Migration20261207210806 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "clinical"."vitals" add column "consciousness" text check ("consciousness" in ('alert', 'new_confusion', 'voice', 'pain', 'unresponsive')) null, add column "supplemental_oxygen" boolean null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "clinical"."vitals" drop column "consciousness", drop column "supplemental_oxygen";`);
  }
}
