import { Entity, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';
import { Money } from '../../../shared/money';

/**
 * A product of a supplier's catalogue: what facilities stock, patients order and purchase orders buy. A catalogue
 * is kept by its supplier's SKUs (unique per supplier); the GTIN, when given, is the global trade item number that
 * tells the same item apart across catalogues. Written only by the catalogue sync.
 */
@ObjectType('Product', { description: "A product of a supplier's catalogue, identified by the supplier's SKU" })
@Entity({ tableName: 'products' })
@Unique({ properties: ['supplierId', 'sku'] })
@Index({ properties: ['gtin'] })
@Index({ properties: ['name'] })
export class Product extends BaseRecord {
  @Field(() => ID, { description: 'The supplier whose catalogue lists it' })
  @Index()
  @Property({ type: 'uuid' })
  supplierId!: string;

  @Field({ description: "The supplier's stock keeping unit, unique in its catalogue" })
  @Property({ type: 'text' })
  sku!: string;

  @Field(() => String, { nullable: true, description: 'GS1 global trade item number (8, 12, 13 or 14 digits, check digit verified)' })
  @Property({ type: 'text', nullable: true })
  gtin?: string | null;

  @Field({ description: 'Name as sold, such as "Amoxicillin 500 mg capsules, box of 21"' })
  @Property({ type: 'text' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Category, such as "antibiotics" or "wound care"' })
  @Property({ type: 'text', nullable: true })
  category?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field({ description: 'The unit one quantity counts, such as "box of 21" or "bottle 100 ml"' })
  @Property({ type: 'text' })
  unit!: string;

  @Field(() => Boolean, { description: 'Sold only against a valid e-prescription of the patient' })
  @Property({ type: 'boolean' })
  prescriptionOnly: Opt<boolean> = false;

  @Field(() => String, {
    nullable: true,
    description: 'The active ingredient ("amoxicillin"); an e-prescription covers the product when its medication names it',
  })
  @Property({ type: 'text', nullable: true })
  activeIngredient?: string | null;

  /** The price as a decimal string with the currency's decimals; GraphQL answers `price`. */
  @Property({ type: 'decimal', columnType: 'numeric' })
  priceAmount!: string;

  @Property({ type: 'text' })
  currency!: string;

  @Field(() => Int, { nullable: true, description: 'Units the supplier holds, as its catalogue last said (null: not told)' })
  @Property({ type: 'integer', nullable: true, check: 'supplier_quantity >= 0' })
  supplierQuantity?: number | null;

  @Field(() => Boolean, { description: 'False once the supplier withdrew it: it can no longer be ordered' })
  @Property({ type: 'boolean' })
  active: Opt<boolean> = true;

  @Field(() => Money, { description: 'The list price of one unit' })
  get price(): Opt<Money> {
    return { amount: this.priceAmount, currencyCode: this.currency };
  }
}
