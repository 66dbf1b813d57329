import { Migration } from '@mikro-orm/migrations';

export class Migration20261124014012 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "clinical"."patients" add column "national_id" text null, add column "national_id_country" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "clinical"."patients" drop column "national_id", drop column "national_id_country";`);
  }
}
