import { Migration } from '@mikro-orm/migrations';

/** Invoices of the revenue cycle: lines with discounts and tax, amounts paid, a link to their claim, partially paid. Existing invoices keep their totals (no discount, no tax). */
export class Migration20261124015807 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "revenue"."invoices" drop constraint if exists "invoices_status_check";`);
    this.addSql(
      `alter table "revenue"."invoices" add column "subtotal" numeric null, add column "discount_total" numeric null, add column "tax_total" numeric null, add column "amount_paid" numeric null, add column "claim_id" uuid null, add column "issued_at" timestamptz null, add column "paid_at" timestamptz null, add column "voided_at" timestamptz null;`,
    );
    this.addSql(
      `update "revenue"."invoices" set "subtotal" = "total_amount", "discount_total" = "total_amount" * 0, "tax_total" = "total_amount" * 0, "amount_paid" = case when "status" = 'paid' then "total_amount" else "total_amount" * 0 end, "items" = coalesce((select jsonb_agg(i || jsonb_build_object('code', null, 'discount', ((i->>'amount')::numeric * 0)::text, 'taxRate', '0', 'taxAmount', ((i->>'amount')::numeric * 0)::text, 'total', i->>'amount') order by n) from jsonb_array_elements("items") with ordinality as t(i, n)), '[]'::jsonb);`,
    );
    this.addSql(
      `alter table "revenue"."invoices" alter column "subtotal" set not null, alter column "discount_total" set not null, alter column "tax_total" set not null, alter column "amount_paid" set not null;`,
    );
    this.addSql(
      `alter table "revenue"."invoices" add constraint "invoices_status_check" check("status" in ('draft', 'issued', 'partially_paid', 'paid', 'void'));`,
    );
    this.addSql(`create index "invoices_claim_id_index" on "revenue"."invoices" ("claim_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "revenue"."invoices" drop constraint if exists "invoices_status_check";`);
    this.addSql(`drop index "revenue"."invoices_claim_id_index";`);
    this.addSql(
      `alter table "revenue"."invoices" drop column "subtotal", drop column "discount_total", drop column "tax_total", drop column "amount_paid", drop column "claim_id", drop column "issued_at", drop column "paid_at", drop column "voided_at";`,
    );
    this.addSql(`update "revenue"."invoices" set "status" = 'issued' where "status" = 'partially_paid';`);
    this.addSql(
      `alter table "revenue"."invoices" add constraint "invoices_status_check" check("status" in ('draft', 'issued', 'paid', 'void'));`,
    );
  }
}
