import { Migration } from '@mikro-orm/migrations';

export class Migration20261124010409 extends Migration {
  // Money keeps its currency's ISO 4217 decimals (KWD 3, UGX 0): numeric without a fixed scale stores the amount as
  // written, where numeric(14,2) rounded KWD to two decimals.
  override async up(): Promise<void> {
    this.addSql(`alter table "revenue"."invoices" alter column "total_amount" type numeric using ("total_amount"::numeric);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "revenue"."invoices" alter column "total_amount" type numeric(14,2) using ("total_amount"::numeric(14,2));`);
  }
}
