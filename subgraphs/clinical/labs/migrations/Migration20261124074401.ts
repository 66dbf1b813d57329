import { Migration } from '@mikro-orm/migrations';

/** The critical results of an organization waiting for review, newest first: what `criticalResultsInbox` reads. */
export class Migration20261124074401 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "lab_results_critical_pending_index" on "clinical"."lab_results" ("organization_id", "received_at", "id") where "critical" and "review_status" = 'pending_review';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "clinical"."lab_results_critical_pending_index";`);
  }
}
