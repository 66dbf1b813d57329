import { Migration } from '@mikro-orm/migrations';

/** A membership holds several roles; every existing one holds the role it had. */
export class Migration20261124023015 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "org"."organization_members" add column "roles" text[] not null default '{}';`);
    this.addSql(`update "org"."organization_members" set "roles" = array["role"];`);
    this.addSql(`alter table "org"."organization_members" alter column "roles" drop default;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "org"."organization_members" drop column "roles";`);
  }
}
