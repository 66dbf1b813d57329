import { Arg, Ctx, Directive, Field, FieldResolver, ID, Int, ObjectType, Resolver, Root } from 'type-graphql';
import { errors } from '../../../shared/errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../shared/model';
import { organizationsWith } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
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

/** Most invoices `Patient.invoices` answers per patient (its `first`); the field's cost is its children times it. */
export const MAX_PATIENT_INVOICES = MAX_PAGE_SIZE;

const sqlCache = new Map<string, string>();

/** The newest `first` invoices of each patient, in the organizations given (every one when null); one statement. */
function newestInvoices(ctx: SubgraphContext, patientIds: readonly string[], organizations: string[] | null, first: number) {
  const meta = ctx.em.getMetadata().get(Invoice.name);
  const schema = meta.schema ?? ctx.em.config.get('schema');
  const key = `${schema}|${organizations ? 'orgs' : 'all'}`;
  let sql = sqlCache.get(key);
  if (!sql) {
    const columns = meta.props
      .filter((p) => !p.lazy && p.persist !== false && p.fieldNames?.length)
      .flatMap((p) => p.fieldNames.map((f) => `"${f}"`));
    sql =
      `select ${columns.join(', ')} from (select *, row_number() over (partition by patient_id order by created_at desc, id desc) as rn ` +
      `from "${schema}"."${meta.tableName}" where patient_id in (?)${organizations ? ' and organization_id in (?)' : ''}) ranked ` +
      `where rn <= ? order by patient_id, rn`;
    sqlCache.set(key, sql);
  }
  const params = organizations ? [patientIds, organizations, first] : [patientIds, first];
  return ctx.em.getConnection().execute<Record<string, unknown>[]>(sql, params, 'all', ctx.em.getTransactionContext());
}

@Resolver(() => BilledPatient)
export class PatientInvoicesResolver {
  @FieldResolver(() => [Invoice], {
    nullable: true,
    description: `The patient's newest invoices the caller may see (the patient, billing staff of the issuing organization), newest first; batched across patients`,
  })
  @Directive('@requires(fields: "userId organizationId")')
  async invoices(
    @Root() patient: BilledPatient,
    @Arg('first', () => Int, { defaultValue: DEFAULT_PAGE_SIZE, description: `How many, 1 to ${MAX_PATIENT_INVOICES}` }) first: number,
    @Ctx() ctx: SubgraphContext,
  ): Promise<Invoice[]> {
    if (!Number.isInteger(first) || first < 1 || first > MAX_PATIENT_INVOICES)
      throw errors.invalidField('first', `must be 1 to ${MAX_PATIENT_INVOICES}`);
    const viewer = ctx.viewer;
    if (!viewer) return [];
    const self = !!patient.userId && patient.userId === viewer.userId && !viewer.apiKey;
    const organizations = self ? null : organizationsWith(viewer, 'invoices:read');
    if (organizations && !organizations.length) return [];
    const found = await ctx
      .loader<string, Invoice[]>(`patient-invoices:${first}:${organizations?.join(',') ?? 'all'}`, async (ids) => {
        const rows = await newestInvoices(ctx, ids, organizations, first);
        const byPatient = new Map<string, Invoice[]>();
        for (const row of rows) {
          const invoice = ctx.em.map(Invoice, row as never);
          byPatient.set(invoice.patientId!, [...(byPatient.get(invoice.patientId!) ?? []), invoice]);
        }
        return ids.map((id) => byPatient.get(id) ?? []);
      })
      .load(patient.id);
    return found ?? [];
  }

  /** The gateway hands over the key and the required fields; nothing to load. */
  static resolveReference(reference: { id: string; userId?: string | null; organizationId?: string | null }) {
    return reference;
  }
}
