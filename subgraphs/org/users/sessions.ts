import { clock } from '../../../shared/clock';
import type { EntityManager } from '../../../shared/db';
import { markSessionEnded } from './identity';
import { Session } from './session.entity';

/** Ends sessions (one, or all of a user's): their access and refresh tokens are rejected from now on. */
export async function revokeSessions(em: EntityManager, where: { userId: string; id?: string }): Promise<number> {
  const sessions = await em.find(Session, { ...where, revokedAt: null, expiresAt: { $gt: clock.now() } });
  if (!sessions.length) return 0;
  const now = clock.now();
  await em.nativeUpdate(Session, { id: { $in: sessions.map((s) => s.id) } }, { revokedAt: now });
  await Promise.all(sessions.map((s) => markSessionEnded(s)));
  return sessions.length;
}
