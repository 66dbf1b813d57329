import { Directive, Field, ID, ObjectType } from 'type-graphql';
import { errors } from '../../../shared/errors';
import { logger } from '../../../shared/logger';
import { isUuid } from '../../../shared/model';
import type { SubgraphContext } from '../../../shared/subgraph';
import type { Patient } from '../patients/patient.entity';

/**
 * An appointment of the org subgraph, referred to by id; the gateway fetches its fields there. This subgraph adds the
 * appointment's clinical notes, for which it needs the appointment's patient and organization (`@requires`).
 */
@ObjectType('Appointment', { description: 'An appointment (owned by the org subgraph)' })
@Directive('@key(fields: "id")')
export class AppointmentRef {
  @Field(() => ID, { description: "The appointment's id" })
  id!: string;

  @Directive('@external')
  @Field(() => ID, { nullable: true })
  patientId?: string | null;

  @Directive('@external')
  @Field(() => ID)
  organizationId?: string;
}

const APPOINTMENT =
  'query ClinicalSessionAppointment($representations: [_Any!]!) { _entities(representations: $representations) { ... on Appointment { id patientId organizationId } } }';

/**
 * Checks an appointment named in input with its owner, as the caller: one the caller may not see (or that does not
 * exist) is a 404 like any record they may not read; one of another patient (or, for an appointment booked without a
 * patient profile, of another organization) is a 400 naming `field`.
 */
export async function requireAppointmentOf(
  ctx: SubgraphContext,
  appointmentId: string,
  patient: Patient,
  field = 'appointmentId',
): Promise<void> {
  if (!isUuid(appointmentId)) throw errors.invalidField(field, 'must be an appointment id');
  let found: { patientId: string | null; organizationId: string } | null;
  try {
    const result = await ctx.peers.query(
      'org',
      APPOINTMENT,
      { representations: [{ __typename: 'Appointment', id: appointmentId }] },
      { viewer: ctx.viewer, requestId: ctx.requestId, ip: ctx.ip, userAgent: ctx.userAgent },
    );
    if (result.errors?.length) throw new Error(result.errors.map((e) => e.message).join('; '));
    found = ((result.data?._entities ?? []) as (typeof found)[])[0] ?? null;
  } catch (err) {
    logger.warn({ err: (err as Error).message, reqId: ctx.requestId }, 'appointment lookup failed');
    throw errors.serviceUnavailable('The appointment could not be checked; try again later');
  }
  if (!found) throw errors.notFound('Appointment');
  const same = found.patientId ? found.patientId === patient.id : found.organizationId === patient.organizationId;
  if (!same) throw errors.invalidField(field, 'must be an appointment of this patient');
}
