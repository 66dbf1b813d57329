import { z } from 'zod';
import type { EntityManager } from './db';
import type { EventEnvelope } from './outbox';

/**
 * The catalogue of bus topics (`svc.<area>.<event>`) and their payloads. Emitters and consumers use these names;
 * the README prints the same catalogue. Payload fields are snake_case, as on the wire.
 */
export const TOPICS = {
  userCreated: 'svc.auth.user_created',
  memberAdded: 'svc.organization.member_added',
  patientCreated: 'svc.patient.created',
  patientErased: 'svc.patient.erased',
  invoiceCreated: 'svc.billing.invoice_created',
  appointmentBooked: 'svc.scheduling.appointment_booked',
  appointmentCancelled: 'svc.scheduling.appointment_cancelled',
  appointmentRescheduled: 'svc.scheduling.appointment_rescheduled',
  labResultReceived: 'svc.lab.result_received',
  prescriptionCreated: 'svc.clinical.prescription_created',
  clinicalRecordUpdated: 'svc.clinical.record_updated',
  leaveApproved: 'svc.workforce.leave_approved',
  patientAdmitted: 'svc.facility.patient_admitted',
  patientTransferred: 'svc.facility.patient_transferred',
  patientDischarged: 'svc.facility.patient_discharged',
} as const;

export type Topic = (typeof TOPICS)[keyof typeof TOPICS];

/** Inbound webhook providers (SPEC: Events, inbound webhooks). Each verified delivery travels on its own topic. */
export const WEBHOOK_PROVIDERS = ['billing', 'video', 'mobile_money_a', 'mobile_money_b', 'messaging', 'mailer', 'forms'] as const;
export type WebhookProvider = (typeof WEBHOOK_PROVIDERS)[number];

export const webhookTopic = (provider: WebhookProvider) => `svc.webhook.${provider}_received`;

export interface UserCreatedPayload {
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  registration_role: string;
}

export interface MemberAddedPayload {
  organization_id: string;
  user_id: string;
  role: string;
}

/** A leave request approved; `member_id` is the member's user id, dates are YYYY-MM-DD (both days included). */
export interface LeaveApprovedPayload {
  leave_request_id: string;
  organization_id: string;
  member_id: string;
  start_date: string;
  end_date: string;
  type: string;
}

/** An admission's moves: admitted into a room, transferred to another, discharged (with the disposition). */
export interface AdmissionEventPayload {
  admission_id: string;
  organization_id: string;
  patient_id: string;
  room_id: string;
  /** Transfers: the room the patient left. */
  from_room_id?: string;
  /** Discharges: where the patient went. */
  disposition?: string;
  at: string;
  by: string;
}

/** A verified inbound webhook delivery, carried whole so its consumer needs nothing else. */
export interface WebhookReceivedPayload {
  delivery_id: string;
  provider: string;
  provider_event_id: string;
  event_type: string | null;
  /** The request body exactly as received (a JSON string, unless the sender broke it). */
  raw_body: string;
}

const envelopeSchema = z.object({
  id: z.string().min(1),
  topic: z.string().regex(/^svc\.[a-z0-9_]+\.[a-z0-9_]+$/, 'must look like svc.<area>.<event>'),
  timestamp: z.iso.datetime({ offset: true }),
  source_service: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
});

/** An envelope as a consumer receives it; throws with the reason when the data is not one. */
export function parseEnvelope(data: unknown): EventEnvelope {
  const parsed = envelopeSchema.safeParse(data);
  if (!parsed.success) {
    throw new Error(`not an event envelope: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'event'} ${i.message}`).join('; ')}`);
  }
  return parsed.data as EventEnvelope;
}

/** What a consumer's handler gets: the event and a transaction of its subgraph's database. */
export interface ConsumerContext {
  em: EntityManager;
  /** How many times this event was tried before (0 on the first attempt). */
  attempt: number;
}

/**
 * A consumer of bus events. It owns one queue (`consumer.<name>`); each event is applied once: the handler's
 * changes and the record that the event was processed commit together.
 */
export interface ConsumerDefinition {
  name: string;
  topics: readonly string[];
  handle(event: EventEnvelope, ctx: ConsumerContext): Promise<void>;
}

/** Thrown by a handler for an event that can never succeed (bad data): it goes to the dead letter queue at once. */
export class PermanentEventError extends Error {
  override name = 'PermanentEventError';
}
