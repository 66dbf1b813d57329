import { errors } from '../../../shared/errors';
import { isUuid } from '../../../shared/model';
import { organizationsWith, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Product } from '../inventory/product.entity';
import { facilitiesHolding } from '../inventory/stock';
import { Supplier } from '../inventory/supplier.entity';
import { facilityPlaces } from './graph';
import { StockSourceKind, type EmergencyRoutingInput, type EmergencyRoutingResult, type StockSource } from './marketplace.types';
import { nearestFirst } from './routing';

const DEFAULT_LIMIT = 20;

export class EmergencyRoutingService {
  /**
   * Facilities and suppliers holding at least `quantity` available units of the product (or of a product with the
   * same GTIN in another catalogue) near a place, nearest first by great-circle distance. Facilities are located by
   * their organization's latitude and longitude, asked of the org subgraph; suppliers carry their own. The caller's
   * own facilities are left out, and so is any place without coordinates. Facility staff (inventory readers) and
   * platform administrators may ask.
   */
  async route(ctx: SubgraphContext, input: EmergencyRoutingInput): Promise<EmergencyRoutingResult> {
    const viewer = requireViewer(ctx.viewer);
    const mine = organizationsWith(viewer, 'inventory:read');
    if (mine !== null && !mine.length) throw errors.forbidden('Emergency routing is for facility staff');
    if (!isUuid(input.productId)) throw errors.invalidField('productId', 'must be a product id');
    if (input.facilityId !== undefined && input.facilityId !== null && !isUuid(input.facilityId)) {
      throw errors.invalidField('facilityId', 'must be an organization id');
    }
    const product = await ctx.em.findOne(Product, { id: input.productId });
    if (!product) throw errors.invalidField('productId', 'must be a known product');
    const same = product.gtin ? await ctx.em.find(Product, { gtin: product.gtin, active: true }) : [];
    const products = [product, ...same.filter((p) => p.id !== product.id)];

    const excluded = new Set<string>([
      ...viewer.memberships.map((m) => m.organizationId),
      ...(viewer.apiKey ? [viewer.apiKey.organizationId] : []),
      ...(input.facilityId ? [input.facilityId] : []),
    ]);
    const holdings = await facilitiesHolding(
      ctx.em,
      products.map((p) => p.id),
      input.quantity,
      [...excluded],
    );
    const places = new Map(
      (
        await facilityPlaces(
          ctx,
          holdings.map((h) => h.facilityId),
        )
      ).map((f) => [f.id, f]),
    );
    const candidates: (Omit<StockSource, 'distanceKm' | 'latitude' | 'longitude'> & {
      latitude: number | null;
      longitude: number | null;
    })[] = [];
    for (const h of holdings) {
      const place = places.get(h.facilityId);
      if (!place || place.status !== 'active') continue;
      candidates.push({
        kind: StockSourceKind.facility,
        id: place.id,
        name: place.name,
        availableQuantity: h.available,
        productId: h.productId,
        latitude: place.latitude,
        longitude: place.longitude,
        city: place.city,
        country: place.country,
      });
    }
    const stocked = products.filter((p) => p.active && (p.supplierQuantity ?? 0) >= input.quantity);
    const suppliers = new Map(
      (stocked.length
        ? await ctx.em.find(Supplier, { id: { $in: [...new Set(stocked.map((p) => p.supplierId))] }, active: true })
        : []
      ).map((s) => [s.id, s]),
    );
    const bestBySupplier = new Map<string, Product>();
    for (const p of stocked) {
      const seen = bestBySupplier.get(p.supplierId);
      if (suppliers.has(p.supplierId) && (!seen || p.supplierQuantity! > seen.supplierQuantity!)) bestBySupplier.set(p.supplierId, p);
    }
    for (const [supplierId, p] of bestBySupplier) {
      const s = suppliers.get(supplierId)!;
      candidates.push({
        kind: StockSourceKind.supplier,
        id: s.id,
        name: s.name,
        availableQuantity: p.supplierQuantity!,
        productId: p.id,
        latitude: s.latitude ?? null,
        longitude: s.longitude ?? null,
        city: s.city ?? null,
        country: s.country ?? null,
      });
    }
    const sources = nearestFirst({ latitude: input.latitude, longitude: input.longitude }, candidates, {
      radiusKm: input.radiusKm,
      limit: input.limit ?? DEFAULT_LIMIT,
    }) as StockSource[];
    return { productId: product.id, quantity: input.quantity, latitude: input.latitude, longitude: input.longitude, sources };
  }
}
