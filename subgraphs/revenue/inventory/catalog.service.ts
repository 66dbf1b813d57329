import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { snakeCase } from '../../../shared/case';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { requirePlatformPermission, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { changedFields, checkRows, MAX_CATALOG_ROWS, rowsFromCsv, rowsFromJson, type ProductFields, type RawRow } from './catalog';
import {
  CatalogFormat,
  CatalogRowOutcome,
  type CatalogRowResult,
  type CatalogSyncResult,
  type ProductListArgs,
  type SyncCatalogInput,
} from './inventory.types';
import { Product } from './product.entity';
import { Supplier } from './supplier.entity';

/** `%` and `_` typed by a client are literal in a LIKE pattern. */
export const likeEscaped = (text: string) => text.replace(/[\\%_]/g, '\\$&');

function fieldsOf(p: Product): ProductFields {
  return {
    sku: p.sku,
    name: p.name,
    category: p.category ?? null,
    gtin: p.gtin ?? null,
    unit: p.unit,
    prescriptionOnly: p.prescriptionOnly,
    activeIngredient: p.activeIngredient ?? null,
    description: p.description ?? null,
    priceAmount: p.priceAmount,
    currency: p.currency,
    supplierQuantity: p.supplierQuantity ?? null,
    active: p.active,
  };
}

export class CatalogService {
  /** The catalogue, for every signed-in caller: search and filters, by name. */
  async list(ctx: SubgraphContext, args: ProductListArgs): Promise<PageResult<Product>> {
    requireViewer(ctx.viewer);
    const where: FilterQuery<Product>[] = [{ active: args.active ?? true }];
    if (args.supplierId !== undefined && args.supplierId !== null) {
      if (!isUuid(args.supplierId)) throw errors.invalidField('supplierId', 'must be a supplier id');
      where.push({ supplierId: args.supplierId });
    }
    if (args.search) {
      const like = `%${likeEscaped(args.search.trim())}%`;
      where.push({
        $or: [{ name: { $ilike: like } }, { sku: { $ilike: like } }, { gtin: { $ilike: like } }, { activeIngredient: { $ilike: like } }],
      });
    }
    if (args.category) where.push({ category: { $ilike: likeEscaped(args.category.trim()) } });
    if (args.sku) where.push({ sku: args.sku.trim() });
    if (args.gtin) where.push({ gtin: args.gtin.trim() });
    if (args.prescriptionOnly !== undefined && args.prescriptionOnly !== null) where.push({ prescriptionOnly: args.prescriptionOnly });
    return paginate(ctx.em, Product, { $and: where }, args, { name: 'asc', id: 'asc' });
  }

  async get(ctx: SubgraphContext, id: string): Promise<Product> {
    requireViewer(ctx.viewer);
    const product = isUuid(id) ? await ctx.em.findOne(Product, { id }) : null;
    if (!product) throw errors.notFound('Product');
    return product;
  }

  /**
   * Upserts a supplier's catalogue by SKU (platform administrators). Each row is checked on its own: a rejected row
   * is reported with its reasons and the others are applied. Syncs of one supplier run one after the other (its row
   * is locked), so two uploads at once never create the same SKU twice.
   */
  async sync(ctx: SubgraphContext, input: SyncCatalogInput): Promise<CatalogSyncResult> {
    requirePlatformPermission(ctx.viewer, 'marketplace:catalog');
    if (!isUuid(input.supplierId)) throw errors.invalidField('supplierId', 'must be a supplier id');
    const raw = this.rowsOf(input);
    const checked = checkRows(raw);
    return ctx.em.transactional(async (em) => {
      const supplier = await em.findOne(Supplier, { id: input.supplierId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!supplier) throw errors.invalidField('supplierId', 'must be a known supplier');
      const skus = checked.flatMap((r) => (r.fields ? [r.fields.sku] : []));
      const existing = new Map(
        (skus.length ? await em.find(Product, { supplierId: supplier.id, sku: { $in: skus } }) : []).map((p) => [p.sku, p]),
      );
      const rows: CatalogRowResult[] = checked.map((row) => {
        if (!row.fields) return { row: row.row, sku: row.sku, outcome: CatalogRowOutcome.rejected, productId: null, reasons: row.reasons };
        const found = existing.get(row.fields.sku);
        if (!found) {
          const product = em.create(Product, { supplierId: supplier.id, ...row.fields });
          return { row: row.row, sku: row.sku, outcome: CatalogRowOutcome.created, productId: product.id, reasons: [] };
        }
        const changed = changedFields(fieldsOf(found), row.fields);
        if (!changed.length) return { row: row.row, sku: row.sku, outcome: CatalogRowOutcome.unchanged, productId: found.id, reasons: [] };
        em.assign(found, row.fields);
        return {
          row: row.row,
          sku: row.sku,
          outcome: CatalogRowOutcome.updated,
          productId: found.id,
          reasons: changed.map((f) => `${snakeCase(f === 'priceAmount' ? 'price' : f)} changed`),
        };
      });
      const count = (outcome: CatalogRowOutcome) => rows.filter((r) => r.outcome === outcome).length;
      return {
        supplierId: supplier.id,
        created: count(CatalogRowOutcome.created),
        updated: count(CatalogRowOutcome.updated),
        unchanged: count(CatalogRowOutcome.unchanged),
        rejected: count(CatalogRowOutcome.rejected),
        rows,
      };
    });
  }

  /** The upload's rows, JSON or CSV; a malformed upload as a whole (not a row of it) is a 400. */
  private rowsOf(input: SyncCatalogInput): RawRow[] {
    const hasJson = input.products !== undefined && input.products !== null;
    const hasCsv = input.csv !== undefined && input.csv !== null;
    if (hasJson && hasCsv) throw errors.invalidField('csv', 'cannot be given together with products');
    if (!hasJson && !hasCsv) throw errors.invalidField(input.format === CatalogFormat.csv ? 'csv' : 'products', 'is required');
    if (input.format === CatalogFormat.csv && !hasCsv) throw errors.invalidField('csv', 'is required when format is csv');
    if (input.format === CatalogFormat.json && !hasJson) throw errors.invalidField('products', 'is required when format is json');
    let rows: RawRow[];
    if (hasCsv) {
      try {
        rows = rowsFromCsv(input.csv!);
      } catch (err) {
        throw errors.invalidField('csv', `cannot be read: ${(err as Error).message}`);
      }
    } else {
      rows = rowsFromJson(input.products!);
    }
    const field = hasCsv ? 'csv' : 'products';
    if (!rows.length) throw errors.invalidField(field, 'has no rows');
    if (rows.length > MAX_CATALOG_ROWS) throw errors.invalidField(field, `must have at most ${MAX_CATALOG_ROWS} rows`);
    return rows;
  }
}
