import type { SubgraphContext } from '../../../shared/subgraph';
import { SecurityEvent } from './security-event.entity';

/** Security events the platform records (audit of access to accounts, keys and roles). */
export type SecurityEventType = SecurityEvent['type'];

export interface SecurityEventInput {
  type: SecurityEventType;
  /** Whose account it concerns. */
  userId?: string | null;
  /** Who acted; the caller when omitted. */
  actorId?: string | null;
  organizationId?: string | null;
  details?: Record<string, unknown>;
}

function build(ctx: SubgraphContext, e: SecurityEventInput): Partial<SecurityEvent> {
  return {
    type: e.type,
    userId: e.userId ?? null,
    actorId: e.actorId === undefined ? (ctx.viewer?.userId ?? null) : e.actorId,
    organizationId: e.organizationId ?? null,
    ip: ctx.ip ?? null,
    userAgent: ctx.userAgent?.slice(0, 500) ?? null,
    details: e.details ?? {},
  };
}

/** Records an event with the change it describes: written by the caller's next flush, in the same transaction. */
export function recordSecurityEvent(ctx: SubgraphContext, e: SecurityEventInput): void {
  ctx.em.create(SecurityEvent, build(ctx, e) as SecurityEvent);
}

/** Records an event at once, on its own: for failures, whose request changes nothing else. */
export async function recordSecurityFailure(ctx: SubgraphContext, e: SecurityEventInput): Promise<void> {
  const em = ctx.em.fork();
  em.create(SecurityEvent, build(ctx, e) as SecurityEvent);
  await em.flush();
}
