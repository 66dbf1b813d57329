import { Migration } from '@mikro-orm/migrations';

export class Migration20261122005628 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "outbox_published_at_created_at_index" on "clinical"."outbox" ("published_at", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "clinical"."outbox_published_at_created_at_index";`);
  }
}
