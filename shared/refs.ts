import { Ctx, Directive, Field, FieldResolver, ID, ObjectType, Resolver, Root, type ClassType } from 'type-graphql';
import { errors } from './errors';
import { logger } from './logger';
import type { EntityClass } from '@mikro-orm/core';
import { byIds, isUuid } from './model';
import type { SubgraphContext } from './subgraph';
import type { Viewer } from './viewer';

/**
 * Entities owned by another subgraph, referred to by id. The gateway fetches their fields from the owner.
 * A subgraph returns `{ id }` for such a field, or null when there is no reference. The organization's key is
 * resolvable (the representation is the reference), so a subgraph may add fields to it (the clinical subgraph's
 * `Organization.patients`).
 */
@ObjectType('Organization')
@Directive('@key(fields: "id")')
export class OrganizationRef {
  @Field(() => ID)
  id!: string;
}

export const ref = (id: string | null | undefined): { id: string } | null => (id ? { id } : null);

@ObjectType('Patient')
@Directive('@key(fields: "id", resolvable: false)')
export class PatientRef {
  @Field(() => ID)
  id!: string;
}

@ObjectType('User')
@Directive('@key(fields: "id", resolvable: false)')
export class UserRef {
  @Field(() => ID)
  id!: string;
}

const REFERENCE_TYPES = { User: UserRef, Organization: OrganizationRef, Patient: PatientRef };

/** An object field beside an id field: `{ prescriber: { id: 'prescriberId', type: 'User' } }`. */
export type ReferenceFields<T> = Record<string, { id: keyof T & string; type: keyof typeof REFERENCE_TYPES; description?: string }>;

/** One object field beside an id field: which id, the field's type and description, how to find the object. */
export interface IdLink<T> {
  id: keyof T & string;
  type: ClassType;
  description: string;
  resolve: (id: string, ctx: SubgraphContext) => unknown;
}

/**
 * A resolver class (named `name`) giving `entity` a nullable object field beside each of its id fields: no id, and
 * the field is null; otherwise what `resolve` finds. Written once for every kind of link (`referenceFields` here,
 * the subgraphs' own loaders: clinical `recordFields`, org `userFields` and `organizationFields`).
 */
export function idLinkFields<T extends object>(entity: ClassType<T>, name: string, fields: Record<string, IdLink<T>>): ClassType {
  @Resolver(() => entity)
  class Links {}
  for (const [field, link] of Object.entries(fields)) {
    Object.defineProperty(Links.prototype, field, {
      value: (root: T, ctx: SubgraphContext) => {
        const id = root[link.id] as string | null | undefined;
        return id ? link.resolve(id, ctx) : null;
      },
      writable: true,
      configurable: true,
    });
    Root()(Links.prototype, field, 0);
    Ctx()(Links.prototype, field, 1);
    FieldResolver(() => link.type, { nullable: true, description: link.description })(
      Links.prototype,
      field,
      Object.getOwnPropertyDescriptor(Links.prototype, field)!,
    );
  }
  Object.defineProperty(Links, 'name', { value: `${entity.name}${name}` });
  return Links;
}

/**
 * A record of this subgraph for an `IdLink`'s `resolve`: batched (one query per kind of record for a whole response)
 * and kept only when `readable`, the rule of the record's root lookup, lets the caller read it; null otherwise, for
 * an id that names none, and for a caller who is not signed in.
 */
export async function readableById<T extends { id: string }>(
  ctx: SubgraphContext,
  entity: EntityClass<T>,
  id: string,
  readable: (viewer: Viewer, row: T) => boolean | Promise<boolean>,
): Promise<T | null> {
  if (!ctx.viewer || !isUuid(id)) return null;
  const row = await ctx.loader<string, T>(`readable:${entity.name}`, byIds(ctx.em, entity)).load(id);
  return row && (await readable(ctx.viewer, row)) ? row : null;
}

/**
 * A resolver giving `entity` an object field beside each of its id fields that name another subgraph's entity
 * (`recordedBy` → `recordedByUser: User`): the reference `{ id }`, which the gateway fetches from the owner under
 * the owner's rules. Nullable: no id, a record the caller may not see, or the owner down, and the field is null
 * while the rest of the record answers. A module lists `referenceFields(X, {...})` among its resolvers.
 */
export function referenceFields<T extends object>(entity: ClassType<T>, fields: ReferenceFields<T>): ClassType {
  const links = Object.entries(fields).map(([field, link]): [string, IdLink<T>] => [
    field,
    {
      id: link.id,
      type: REFERENCE_TYPES[link.type],
      description:
        link.description ?? `The ${link.type.toLowerCase()} \`${link.id}\` names; null when there is none or the caller may not see it`,
      resolve: (id) => ref(id),
    },
  ]);
  return idLinkFields(entity, 'References', Object.fromEntries(links));
}

const OWN_PATIENT = 'query OwnPatientProfile { myPatientProfile { id } }';

/** Who asks another subgraph: a request's caller, or the platform itself in a bus consumer. */
export type PeerCaller = Pick<SubgraphContext, 'peers' | 'viewer' | 'requestId'> & { ip?: string; userAgent?: string };

const callerOf = (ctx: PeerCaller) => ({ viewer: ctx.viewer, requestId: ctx.requestId, ip: ctx.ip, userAgent: ctx.userAgent });

/**
 * The id of the signed-in person's own patient profile in the clinical subgraph, or null when they have none. Only
 * a link: when the clinical subgraph cannot answer, the caller goes on without it (logged).
 */
export async function ownPatientId(ctx: SubgraphContext): Promise<string | null> {
  if (!ctx.viewer || ctx.viewer.apiKey || ctx.viewer.system) return null;
  try {
    const result = await ctx.peers.query('clinical', OWN_PATIENT, {}, callerOf(ctx));
    const error = result.errors?.[0];
    if (error && error.extensions?.code !== 'NOT_FOUND') throw new Error(error.message);
    return (result.data?.myPatientProfile as { id: string } | null | undefined)?.id ?? null;
  } catch (err) {
    logger.warn({ err: (err as Error).message, reqId: ctx.requestId }, 'own patient profile lookup failed; going on without the link');
    return null;
  }
}

/** A reference lookup in the subgraph that owns `typename`: `_entities` with `selection`, written once. */
interface EntityLookup {
  subgraph: string;
  typename: string;
  document: string;
}

const entityLookup = (subgraph: string, typename: string, selection: string): EntityLookup => ({
  subgraph,
  typename,
  document: `query ${typename}Reference($representations: [_Any!]!) { _entities(representations: $representations) { ... on ${typename} ${selection} } }`,
});

const PATIENT_ORGANIZATION = entityLookup('clinical', 'Patient', '{ id organization { id } }');
const ORGANIZATION_STATUS = entityLookup('org', 'Organization', '{ id status }');

/** An entity of another subgraph as its owner shows it to the caller, or null when it does not exist or is hidden. */
async function peerEntity<T>(ctx: PeerCaller, lookup: EntityLookup, id: string): Promise<T | null> {
  const { subgraph, typename, document } = lookup;
  const result = await ctx.peers.query(subgraph, document, { representations: [{ __typename: typename, id }] }, callerOf(ctx));
  if (result.errors?.length) throw new Error(`${typename} lookup failed: ${result.errors.map((e) => e.message).join('; ')}`);
  return ((result.data?._entities ?? []) as (T | null)[])[0] ?? null;
}

/**
 * Checks a patient named in input by asking the clinical subgraph as the caller: a patient the caller may not see
 * (or that does not exist) is a 404, as for any record they may not read; one of another organization (seen
 * through a consent) is a 400 naming `field`.
 */
export async function requirePatientOf(
  ctx: SubgraphContext,
  patientId: string,
  organizationId: string,
  field = 'patientId',
): Promise<void> {
  if (!isUuid(patientId)) throw errors.invalidField(field, 'must be a patient id');
  const patient = await peerEntity<{ organization: { id: string } | null }>(ctx, PATIENT_ORGANIZATION, patientId);
  if (!patient) throw errors.notFound('Patient');
  if (patient.organization?.id !== organizationId) throw errors.invalidField(field, 'must be a patient of this organization');
}

/** An organization's status as the org subgraph has it, or null when there is no such organization. */
export async function organizationStatus(ctx: PeerCaller, organizationId: string): Promise<string | null> {
  if (!isUuid(organizationId)) return null;
  return (await peerEntity<{ status: string }>(ctx, ORGANIZATION_STATUS, organizationId))?.status ?? null;
}

/** Checks an organization named in input (a pharmacy) with the org subgraph: it must exist and be active (400 naming `field`). */
export async function requireActiveOrganization(ctx: SubgraphContext, organizationId: string, field: string): Promise<void> {
  if (!isUuid(organizationId)) throw errors.invalidField(field, 'must be an organization id');
  if ((await organizationStatus(ctx, organizationId)) !== 'active') throw errors.invalidField(field, 'must be an active organization');
}
