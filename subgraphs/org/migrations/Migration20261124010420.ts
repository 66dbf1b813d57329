import { Migration } from '@mikro-orm/migrations';

export class Migration20261124010420 extends Migration {
  // Money keeps its currency's ISO 4217 decimals (KWD 3, UGX 0): numeric without a fixed scale stores the amount as
  // written, where numeric(14,2) rounded KWD to two decimals.
  override async up(): Promise<void> {
    this.addSql(`alter table "org"."doctor_profiles" alter column "consultation_fee" type numeric using ("consultation_fee"::numeric);`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "org"."doctor_profiles" alter column "consultation_fee" type numeric(14,2) using ("consultation_fee"::numeric(14,2));`,
    );
  }
}
