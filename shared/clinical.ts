import { Field, UseMiddleware, type FieldOptions, type MiddlewareFn } from 'type-graphql';
import { errors } from './errors';
import { logger } from './logger';
import { isUuid } from './model';
import { can } from './permissions';
import type { SubgraphContext } from './subgraph';

/**
 * Clinical fields on records that other permissions open: an admission's reason (admissions:read lets a receptionist
 * read the stay), an appointment's reason for the visit (appointments:read). Such a field answers only callers who
 * may read clinical data of the record; anyone else gets null with a FORBIDDEN error at the field, and the rest of
 * the record answers (docs/permissions.md, "Clinical data"). Records that are clinical as a whole (a clinical note,
 * a lab result) need clinical:read to be reached at all and mark no field.
 */

/**
 * The sentence every clinical field's description ends with: clients read the rule in the schema, and the test that
 * walks the graph finds the fields by it.
 */
export const CLINICAL_FIELD_RULE =
  "Clinical data: null with a FORBIDDEN error unless the caller reads clinical data (clinical:read) in the record's organization or of its patient";

/** Whom a record's clinical data is about and where it belongs. */
export interface ClinicalOwner {
  /** The organization the record belongs to: its members and API keys holding clinical:read read the field. */
  organizationId: string | null | undefined;
  /** The patient it is about: whoever the clinical subgraph lets read this patient's clinical data reads it too. */
  patientId?: string | null;
  /** Users the record itself names as its own people (the patient who booked, the doctor seen), who read it too. */
  readers?: readonly (string | null | undefined)[];
}

/** Finds a record's owner; may load what the record only refers to (a transfer's admission). */
export type ClinicalOwnerOf<T> = (record: T, ctx: SubgraphContext) => ClinicalOwner | Promise<ClinicalOwner>;

/**
 * The patients whose clinical data the clinical subgraph lets the caller read (its own profile, the organization's
 * clinical roles, a consent, ...): an internal query of that subgraph, asked as the caller.
 */
const PATIENTS_WITH_CLINICAL_ACCESS = 'query PatientsWithClinicalAccess($ids: [ID!]!) { patientsWithClinicalAccess(ids: $ids) }';

/** Whether the clinical subgraph lets the caller read each patient's clinical data, batched per request. */
function patientAccess(ctx: SubgraphContext) {
  return ctx.loader<string, boolean>('clinical-access-of-patient', async (ids) => {
    let readable = new Set<string>();
    try {
      const result = await ctx.peers.query(
        'clinical',
        PATIENTS_WITH_CLINICAL_ACCESS,
        { ids: [...ids] },
        { viewer: ctx.viewer, requestId: ctx.requestId, ip: ctx.ip, userAgent: ctx.userAgent },
      );
      if (result.errors?.length) throw new Error(result.errors.map((e) => e.message).join('; '));
      readable = new Set((result.data?.patientsWithClinicalAccess ?? []) as string[]);
    } catch (err) {
      // The clinical subgraph down or refusing: nobody reads on a patient's basis in this request (closed, logged).
      logger.warn({ err: (err as Error).message, reqId: ctx.requestId }, "patients' clinical access lookup failed; refusing on that basis");
    }
    return ids.map((id) => readable.has(id));
  });
}

/**
 * Whether the caller reads the clinical data of a record: clinical:read in its organization (members by role, API keys
 * by scope, platform administrators), one of the users the record names as its own, or the clinical subgraph's rule
 * for its patient. API keys and the platform's own work read only by the organization's permission.
 */
export async function mayReadClinical(ctx: SubgraphContext, owner: ClinicalOwner): Promise<boolean> {
  const viewer = ctx.viewer;
  if (!viewer) return false;
  if (owner.organizationId && can(viewer, 'clinical:read', owner.organizationId)) return true;
  if (viewer.apiKey || viewer.system) return false;
  if (owner.readers?.some((id) => id && id === viewer.userId)) return true;
  if (!owner.patientId || !isUuid(owner.patientId)) return false;
  return !!(await patientAccess(ctx).load(owner.patientId));
}

/** Field middleware: the field resolves only for callers who read the record's clinical data, else FORBIDDEN. */
export function clinicalOnly<T>(ownerOf: ClinicalOwnerOf<T>): MiddlewareFn<SubgraphContext> {
  return async ({ root, context }, next) => {
    if (!(await mayReadClinical(context, await ownerOf(root as T, context)))) {
      throw errors.forbidden('Reading clinical data needs the clinical:read permission');
    }
    return next();
  };
}

type ReturnTypeFunc = NonNullable<Parameters<typeof Field>[0]>;

/**
 * A clinical field of an object type (a property, or a method of the type's class): always nullable, its description
 * ending with `CLINICAL_FIELD_RULE`, resolved only for callers who read the record's clinical data (`clinicalOnly`).
 *
 *   @ClinicalField(() => String, { description: 'Why the patient was admitted' }, (a: Admission) => ({ organizationId: a.organizationId, patientId: a.patientId }))
 */
export function ClinicalField<T>(
  returns: ReturnTypeFunc,
  options: Omit<FieldOptions, 'nullable'>,
  ownerOf: ClinicalOwnerOf<T>,
): MethodDecorator & PropertyDecorator {
  const description = options.description ? `${options.description}. ${CLINICAL_FIELD_RULE}` : CLINICAL_FIELD_RULE;
  return (prototype: object, key: string | symbol, descriptor?: PropertyDescriptor) => {
    Field(returns, { ...options, nullable: true, description })(prototype, key, descriptor as never);
    UseMiddleware(clinicalOnly(ownerOf))(prototype, key, descriptor as never);
  };
}
