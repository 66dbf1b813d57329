import { Migration } from '@mikro-orm/migrations';

export class Migration20261124015014 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "revenue"."inventory_items" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "facility_id" uuid not null, "product_id" uuid not null, "on_hand" int not null default 0, "reserved" int not null default 0, "reorder_level" int null, "reorder_quantity" int null, "preferred_supplier_id" uuid null, "batch_number" text null, "expiry_date" date null, "low_stock_since" timestamptz null, constraint "inventory_items_pkey" primary key ("id"), constraint inventory_items_on_hand_check check (on_hand >= 0), constraint inventory_items_reserved_check check (reserved >= 0), constraint inventory_items_reorder_level_check check (reorder_level >= 0), constraint inventory_items_reorder_quantity_check check (reorder_quantity > 0), constraint inventory_items_reserved_within_on_hand check (reserved <= on_hand));`,
    );
    this.addSql(`create index "inventory_items_facility_id_index" on "revenue"."inventory_items" ("facility_id");`);
    this.addSql(`create index "inventory_items_product_id_index" on "revenue"."inventory_items" ("product_id");`);
    this.addSql(
      `alter table "revenue"."inventory_items" add constraint "inventory_items_facility_id_product_id_unique" unique ("facility_id", "product_id");`,
    );

    this.addSql(
      `create table "revenue"."products" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "supplier_id" uuid not null, "sku" text not null, "gtin" text null, "name" text not null, "category" text null, "description" text null, "unit" text not null, "prescription_only" boolean not null default false, "active_ingredient" text null, "price_amount" numeric not null, "currency" text not null, "supplier_quantity" int null, "active" boolean not null default true, constraint "products_pkey" primary key ("id"), constraint products_supplier_quantity_check check (supplier_quantity >= 0));`,
    );
    this.addSql(`create index "products_supplier_id_index" on "revenue"."products" ("supplier_id");`);
    this.addSql(`create index "products_name_index" on "revenue"."products" ("name");`);
    this.addSql(`create index "products_gtin_index" on "revenue"."products" ("gtin");`);
    this.addSql(`alter table "revenue"."products" add constraint "products_supplier_id_sku_unique" unique ("supplier_id", "sku");`);

    this.addSql(
      `create table "revenue"."purchase_orders" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "facility_id" uuid not null, "supplier_id" uuid not null, "number" text not null, "status" text check ("status" in ('draft', 'approved', 'received', 'cancelled')) not null default 'draft', "source" text check ("source" in ('manual', 'reorder')) not null default 'manual', "currency" text not null, "total_amount" numeric not null, "notes" text null, "created_by" uuid null, "approved_by" uuid null, "approved_at" timestamptz null, "received_by" uuid null, "received_at" timestamptz null, "cancelled_by" uuid null, "cancelled_at" timestamptz null, constraint "purchase_orders_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "purchase_orders_supplier_id_index" on "revenue"."purchase_orders" ("supplier_id");`);
    this.addSql(`create index "purchase_orders_facility_id_status_index" on "revenue"."purchase_orders" ("facility_id", "status");`);
    this.addSql(
      `alter table "revenue"."purchase_orders" add constraint "purchase_orders_facility_id_number_unique" unique ("facility_id", "number");`,
    );

    this.addSql(
      `create table "revenue"."purchase_order_lines" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "purchase_order_id" uuid not null, "product_id" uuid not null, "quantity" int not null, "unit_cost" numeric not null, "amount" numeric not null, "currency" text not null, constraint "purchase_order_lines_pkey" primary key ("id"), constraint purchase_order_lines_quantity_check check (quantity > 0));`,
    );
    this.addSql(`create index "purchase_order_lines_product_id_index" on "revenue"."purchase_order_lines" ("product_id");`);
    this.addSql(
      `alter table "revenue"."purchase_order_lines" add constraint "purchase_order_lines_purchase_order_id_product_id_unique" unique ("purchase_order_id", "product_id");`,
    );

    this.addSql(
      `create table "revenue"."stock_movements" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "inventory_item_id" uuid not null, "facility_id" uuid not null, "product_id" uuid not null, "reason" text check ("reason" in ('received', 'dispensed', 'damaged', 'expired', 'count_correction', 'reserved', 'released', 'delivered')) not null, "on_hand_change" int not null, "reserved_change" int not null, "on_hand_after" int not null, "reserved_after" int not null, "order_id" uuid null, "purchase_order_id" uuid null, "note" text null, "created_by" uuid null, constraint "stock_movements_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "stock_movements_order_id_index" on "revenue"."stock_movements" ("order_id");`);
    this.addSql(
      `create index "stock_movements_inventory_item_id_created_at_index" on "revenue"."stock_movements" ("inventory_item_id", "created_at");`,
    );

    this.addSql(
      `create table "revenue"."suppliers" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "name" text not null, "email" text null, "phone" text null, "address" text null, "city" text null, "country" text null, "latitude" double precision null, "longitude" double precision null, "active" boolean not null default true, "created_by" uuid not null, constraint "suppliers_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "suppliers_name_index" on "revenue"."suppliers" ("name");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "revenue"."inventory_items" cascade;`);

    this.addSql(`drop table if exists "revenue"."products" cascade;`);

    this.addSql(`drop table if exists "revenue"."purchase_orders" cascade;`);

    this.addSql(`drop table if exists "revenue"."purchase_order_lines" cascade;`);

    this.addSql(`drop table if exists "revenue"."stock_movements" cascade;`);

    this.addSql(`drop table if exists "revenue"."suppliers" cascade;`);
  }
}
