import { Ctx, Directive, Field, FieldResolver, ID, ObjectType, Resolver, Root } from 'type-graphql';
import { can } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { isPlatformAdmin } from '../../../shared/viewer';
import { Invoice } from './invoice.entity';

/**
 * The patient as the revenue subgraph sees it: an entity of the clinical subgraph, extended with the patient's
 * invoices. `userId` and `organizationId` come from the clinical subgraph (`@requires`), so this subgraph can tell
 * the patient and their organization's billing staff apart from everyone else without reading clinical tables.
 */
@ObjectType('Patient')
@Directive('@key(fields: "id")')
export class BilledPatient {
  @Field(() => ID)
  id!: string;

  @Directive('@external')
  @Field(() => ID, { nullable: true })
  userId?: string | null;

  @Directive('@external')
  @Field(() => ID, { nullable: true })
  organizationId?: string | null;
}

@Resolver(() => BilledPatient)
export class PatientInvoicesResolver {
  @FieldResolver(() => [Invoice], { nullable: true, description: "The patient's invoices the caller may see (batched across patients)" })
  @Directive('@requires(fields: "userId organizationId")')
  async invoices(@Root() patient: BilledPatient, @Ctx() ctx: SubgraphContext): Promise<Invoice[]> {
    const viewer = ctx.viewer;
    if (!viewer) return [];
    const all = await ctx
      .loader<string, Invoice[]>('patient-invoices', async (ids) => {
        const rows = await ctx.em.find(Invoice, { patientId: { $in: [...ids] } }, { orderBy: { createdAt: 'desc' } });
        return ids.map((id) => rows.filter((r) => r.patientId === id));
      })
      .load(patient.id);
    const self = !!patient.userId && patient.userId === viewer.userId && !viewer.apiKey;
    if (self || isPlatformAdmin(viewer)) return all ?? [];
    return (all ?? []).filter((inv) => can(viewer, 'invoices:read', inv.organizationId));
  }

  /** The gateway hands over the key and the required fields; nothing to load. */
  static resolveReference(reference: { id: string; userId?: string | null; organizationId?: string | null }) {
    return reference;
  }
}
