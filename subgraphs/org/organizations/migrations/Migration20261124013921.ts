import { Migration } from '@mikro-orm/migrations';

export class Migration20261124013921 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "org"."organizations" add column "latitude" double precision null, add column "longitude" double precision null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "org"."organizations" drop column "latitude", drop column "longitude";`);
  }
}
