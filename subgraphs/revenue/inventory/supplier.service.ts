import type { FilterQuery } from '@mikro-orm/core';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { organizationsWith, requireUser, requireViewer } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin } from '../../../shared/viewer';
import { likeEscaped } from './catalog.service';
import type { CreateSupplierInput, SupplierListArgs } from './inventory.types';
import { Supplier } from './supplier.entity';

/** A place is a latitude and a longitude together: one without the other locates nothing. */
export function requireBothOrNeither(latitude: number | null | undefined, longitude: number | null | undefined): void {
  const has = (v: number | null | undefined) => v !== undefined && v !== null;
  if (has(latitude) !== has(longitude)) {
    throw errors.invalidField(
      has(latitude) ? 'longitude' : 'latitude',
      `must be given together with ${has(latitude) ? 'latitude' : 'longitude'}`,
    );
  }
}

export class SupplierService {
  /**
   * Adds a supplier to the directory every facility shares: platform administrators, and administrators of a
   * facility (who buy from it). API keys do not.
   */
  async create(ctx: SubgraphContext, input: CreateSupplierInput): Promise<Supplier> {
    const viewer = requireUser(ctx.viewer);
    if (!isPlatformAdmin(viewer) && !organizationsWith(viewer, 'purchase-orders:approve')?.length) {
      throw errors.forbidden('Only platform administrators and facility administrators add suppliers');
    }
    requireBothOrNeither(input.latitude, input.longitude);
    const supplier = ctx.em.create(Supplier, {
      name: input.name.trim(),
      email: input.email?.trim().toLowerCase() ?? null,
      phone: input.phone ?? null,
      address: input.address?.trim() ?? null,
      city: input.city?.trim() ?? null,
      country: input.country ?? null,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      createdBy: viewer.userId,
    });
    await ctx.em.flush();
    return supplier;
  }

  /** The directory, for every signed-in caller, by name. */
  async list(ctx: SubgraphContext, args: SupplierListArgs): Promise<PageResult<Supplier>> {
    requireViewer(ctx.viewer);
    const where: FilterQuery<Supplier> = {};
    if (args.search) where.name = { $ilike: `%${likeEscaped(args.search.trim())}%` };
    if (args.country) where.country = args.country;
    return paginate(ctx.em, Supplier, where, args, { name: 'asc', id: 'asc' });
  }

  async get(ctx: SubgraphContext, id: string): Promise<Supplier> {
    requireViewer(ctx.viewer);
    const supplier = isUuid(id) ? await ctx.em.findOne(Supplier, { id }) : null;
    if (!supplier) throw errors.notFound('Supplier');
    return supplier;
  }
}
