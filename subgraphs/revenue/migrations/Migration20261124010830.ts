import { Migration } from '@mikro-orm/migrations';

/** The revenue subgraph now has bus consumers (billing): their processed-events record. */
export class Migration20261124010830 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "revenue"."processed_events" ("consumer" text not null, "event_id" text not null, "processed_at" timestamptz not null, constraint "processed_events_pkey" primary key ("consumer", "event_id"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "revenue"."processed_events" cascade;`);
  }
}
