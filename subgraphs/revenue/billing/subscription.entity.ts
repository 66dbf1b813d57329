import { Entity, Index, Property } from '@mikro-orm/core';
import { BaseRecord } from '../../../shared/model';

/**
 * An organization's subscription to the platform and its payment state, as the billing provider last reported it
 * (through its webhooks). One per organization.
 */
@Entity({ tableName: 'organization_subscriptions' })
export class Subscription extends BaseRecord {
  @Property({ type: 'uuid', unique: true })
  organizationId!: string;

  @Index()
  @Property({ type: 'text', nullable: true })
  billingCustomerId?: string | null;

  @Index()
  @Property({ type: 'text', nullable: true })
  subscriptionId?: string | null;

  /** active, past_due, canceled, ... (the provider's words) */
  @Property({ type: 'text', nullable: true })
  status?: string | null;

  @Property({ type: 'text', nullable: true })
  plan?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  currentPeriodEnd?: Date | null;

  /** succeeded or failed */
  @Property({ type: 'text', nullable: true })
  lastPaymentStatus?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  lastPaymentAt?: Date | null;

  /** When the provider created the event that last set `status`: an older event never overwrites it. */
  @Property({ type: 'timestamptz', nullable: true })
  statusAt?: Date | null;
}

/**
 * An invoice of the organization's platform subscription, as the billing provider last reported it (Stripe's
 * invoice object). Each is kept in the order the provider created its events, whatever order they arrive in;
 * `paid` and `void` are final.
 */
@Entity({ tableName: 'subscription_invoices' })
export class SubscriptionInvoice extends BaseRecord {
  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text', unique: true })
  providerInvoiceId!: string;

  @Property({ type: 'text', nullable: true })
  number?: string | null;

  /** draft, open, paid, uncollectible or void (the provider's words). */
  @Property({ type: 'text' })
  status!: string;

  /** ISO 4217, upper case. */
  @Property({ type: 'text', nullable: true })
  currency?: string | null;

  /** Decimal strings in `currency`. */
  @Property({ type: 'decimal', columnType: 'numeric', nullable: true })
  amountDue?: string | null;

  @Property({ type: 'decimal', columnType: 'numeric', nullable: true })
  amountPaid?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  periodStart?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  periodEnd?: Date | null;

  @Property({ type: 'text', nullable: true })
  hostedUrl?: string | null;

  @Property({ type: 'integer', nullable: true })
  attemptCount?: number | null;

  @Property({ type: 'timestamptz', nullable: true })
  paidAt?: Date | null;

  /** When the provider created the event last applied. */
  @Property({ type: 'timestamptz' })
  lastEventAt!: Date;
}
