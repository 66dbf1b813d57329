import { Migration } from '@mikro-orm/migrations';

export class Migration20261122053155 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "org"."appointment_requests" add column "patient_id" uuid null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "org"."appointment_requests" drop column "patient_id";`);
  }
}
