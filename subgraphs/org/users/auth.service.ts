import { randomInt, randomUUID } from 'node:crypto';
import { verifyIdToken } from '../../../shared/adapters/oidc';
import { clock } from '../../../shared/clock';
import { config } from '../../../shared/config';
import type { EntityManager } from '../../../shared/db';
import { errors } from '../../../shared/errors';
import { done, type ActionResult } from '../../../shared/model';
import { emitEvent } from '../../../shared/outbox';
import { USER_CREATED } from './user.events';
import { requireUser } from '../../../shared/permissions';
import { consume } from '../../../shared/rate-limit';
import type { SubgraphContext } from '../../../shared/subgraph';
import { signToken, verifyToken } from '../../../shared/tokens';
import { recordSecurityEvent, recordSecurityFailure } from '../security/security-log';
import type { AuthPayload, LoginInput, ReferralInfo, RegisterInput, SocialLoginInput } from './auth.types';
import { EmailService } from './email.service';
import { markSessionActive } from './identity';
import { MfaService } from './mfa.service';
import { hashPassword, verifyPassword } from './passwords';
import { Session } from './session.entity';
import { revokeSessions } from './sessions';
import { UserIdentity } from './user-token.entity';
import { signedInAs, User, UserStatus } from './user.entity';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Letters and digits that cannot be mistaken for one another. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function newReferralCode(): string {
  return Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}

/** Brute-force targets are limited per client address (and, for login, per account too). */
async function limitAttempts(ctx: SubgraphContext, action: string, ...subjects: string[]): Promise<void> {
  await consume('auth', `${action}:ip:${ctx.ip ?? 'unknown'}`);
  for (const subject of subjects) await consume('auth', `${action}:${subject}`);
}

/** A new account: the bus event other modules consume (SPEC: svc.auth.user_created) and the audit entry. */
function recordUserCreated(ctx: SubgraphContext, user: User, method: string): void {
  emitEvent(ctx.em, 'org', USER_CREATED, {
    user_id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    registration_role: user.registrationRole,
  });
  recordSecurityEvent(ctx, { type: 'user_registered', userId: user.id, actorId: user.id, details: { method } });
}

export class AuthService {
  private readonly email = new EmailService();
  private readonly mfa = new MfaService();

  async register(ctx: SubgraphContext, input: RegisterInput): Promise<AuthPayload> {
    await limitAttempts(ctx, 'register');
    const email = normalizeEmail(input.email);
    if (await ctx.em.count(User, { email })) throw errors.duplicate('An account with this email already exists');
    let referredBy: string | null = null;
    if (input.referralCode) {
      const referrer = await ctx.em.findOne(User, { referralCode: input.referralCode.trim().toUpperCase() });
      if (!referrer) throw errors.invalidField('referralCode', 'is not a valid referral code');
      referredBy = referrer.id;
    }
    const user = ctx.em.create(User, {
      email,
      passwordHash: await hashPassword(input.password),
      firstName: input.firstName.trim(),
      lastName: input.lastName.trim(),
      registrationRole: input.registrationRole ?? 'PATIENT',
      referralCode: newReferralCode(),
      referredBy,
    });
    recordUserCreated(ctx, user, 'password');
    const token = this.email.verificationToken(ctx, user);
    const payload = await this.startSession(ctx, user, 'register');
    await this.email.sendVerification(ctx, user, token);
    return payload;
  }

  async login(ctx: SubgraphContext, input: LoginInput): Promise<AuthPayload> {
    const email = normalizeEmail(input.email);
    await limitAttempts(ctx, 'login', `account:${email}`);
    const user = await ctx.em.findOne(User, { email }, { populate: ['passwordHash'] });
    // Always verify (a dummy hash for unknown emails) so timing does not tell which emails have accounts.
    const ok = await verifyPassword(user?.passwordHash, input.password);
    if (!user || !ok) {
      await recordSecurityFailure(ctx, {
        type: 'login_failed',
        userId: user?.id ?? null,
        actorId: null,
        details: { email, reason: 'bad_credentials' },
      });
      throw errors.unauthorized('Invalid email or password');
    }
    return this.signIn(ctx, user, 'password');
  }

  /** Signs in a user whose first factor is proven: MFA users get a challenge, others a session. */
  async signIn(ctx: SubgraphContext, user: User, method: string): Promise<AuthPayload> {
    if (user.status !== UserStatus.active) {
      await recordSecurityFailure(ctx, { type: 'login_failed', userId: user.id, actorId: null, details: { method, reason: 'suspended' } });
      throw errors.forbidden('This account is suspended');
    }
    if (user.mfaEnabled) {
      await ctx.em.flush();
      return this.mfa.challengeFor(user);
    }
    return this.startSession(ctx, user, method);
  }

  /** Trades a refresh token for new tokens. A refresh token works once: a second use ends the session. */
  async refresh(ctx: SubgraphContext, refreshToken: string): Promise<AuthPayload> {
    await limitAttempts(ctx, 'refresh');
    const claims = await verifyToken(refreshToken, 'refresh');
    if (!claims.sid || !claims.jti) throw errors.unauthorized('Invalid refresh token');
    const next = randomUUID();
    const rotated = await ctx.em.nativeUpdate(
      Session,
      { id: claims.sid, userId: claims.sub, refreshTokenId: claims.jti, revokedAt: null, expiresAt: { $gt: clock.now() } },
      { refreshTokenId: next },
    );
    if (rotated !== 1) {
      const session = await ctx.em.findOne(Session, { id: claims.sid, userId: claims.sub });
      if (session && !session.revokedAt && session.refreshTokenId !== claims.jti) {
        // A rotated token came back: it was copied. End the whole session so neither copy works.
        await revokeSessions(ctx.em, { userId: claims.sub, id: session.id });
        await recordSecurityFailure(ctx, {
          type: 'refresh_token_reused',
          userId: claims.sub,
          actorId: null,
          details: { session_id: session.id },
        });
        throw errors.unauthorized('This refresh token was already used; the session has been ended');
      }
      throw errors.unauthorized('Session has ended; sign in again');
    }
    const [session, user] = await Promise.all([
      ctx.em.findOneOrFail(Session, { id: claims.sid }, { refresh: true }),
      ctx.em.findOne(User, { id: claims.sub }),
    ]);
    if (!user || user.status !== UserStatus.active) {
      await revokeSessions(ctx.em, { userId: claims.sub, id: claims.sid });
      throw errors.unauthorized('Account is suspended');
    }
    recordSecurityEvent(ctx, { type: 'session_refreshed', userId: user.id, actorId: user.id, details: { session_id: session.id } });
    await ctx.em.flush();
    return issueTokens(user, session);
  }

  async logout(ctx: SubgraphContext): Promise<ActionResult> {
    const viewer = requireUser(ctx.viewer);
    if (!viewer.sessionId) throw errors.unauthorized();
    await revokeSessions(ctx.em, { userId: viewer.userId, id: viewer.sessionId });
    recordSecurityEvent(ctx, { type: 'logout', userId: viewer.userId, details: { session_id: viewer.sessionId } });
    await ctx.em.flush();
    return done('Signed out; the session has ended');
  }

  async me(ctx: SubgraphContext): Promise<User> {
    const viewer = requireUser(ctx.viewer);
    const user = await ctx.em.findOne(User, { id: viewer.userId });
    if (!user) throw errors.notFound('User');
    return user;
  }

  /**
   * Signs in with an OpenID Connect ID token. The first login creates the account (or links an existing one when
   * the provider vouches for the email address); later logins find it by the provider's subject.
   */
  async socialLogin(ctx: SubgraphContext, input: SocialLoginInput): Promise<AuthPayload> {
    await limitAttempts(ctx, 'login');
    const identity = await verifyIdToken(input.provider, input.idToken);
    const linked = await ctx.em.findOne(UserIdentity, { provider: identity.provider, subject: identity.subject });
    let user = linked ? await ctx.em.findOne(User, { id: linked.userId }) : null;
    if (!user) {
      if (!identity.email) throw errors.unauthorized('The provider did not share an email address');
      const existing = await ctx.em.findOne(User, { email: identity.email });
      if (existing && !identity.emailVerified) {
        throw errors.conflict('An account with this email exists; sign in with its password to link this provider');
      }
      user =
        existing ??
        ctx.em.create(User, {
          email: identity.email,
          passwordHash: null,
          firstName: identity.givenName?.trim() || identity.email.split('@')[0],
          lastName: identity.familyName?.trim() || '',
          registrationRole: input.registrationRole ?? 'PATIENT',
          referralCode: newReferralCode(),
          emailVerifiedAt: identity.emailVerified ? clock.now() : null,
        });
      if (!existing) {
        recordUserCreated(ctx, user, identity.provider);
      }
      ctx.em.create(UserIdentity, { userId: user.id, provider: identity.provider, subject: identity.subject });
    }
    return this.signIn(ctx, user, `social:${identity.provider}`);
  }

  /** Who a referral code belongs to (name only), and whether it is valid. Public. */
  async referral(ctx: SubgraphContext, code: string): Promise<ReferralInfo> {
    const normalized = code.trim().toUpperCase();
    const owner = await ctx.em.findOne(User, { referralCode: normalized, status: UserStatus.active });
    return {
      code: normalized,
      valid: !!owner,
      referrer: owner ? { firstName: owner.firstName, lastName: owner.lastName } : null,
    };
  }

  /** Opens a session for the user and flushes everything the caller changed with it, in one transaction. */
  async startSession(ctx: SubgraphContext, user: User, method: string): Promise<AuthPayload> {
    const cfg = config();
    const session = ctx.em.create(Session, {
      userId: user.id,
      refreshTokenId: randomUUID(),
      expiresAt: new Date(clock.nowMs() + cfg.REFRESH_TOKEN_TTL_SECONDS * 1000),
      ip: ctx.ip ?? null,
    });
    user.lastLoginAt = clock.now();
    recordSecurityEvent(ctx, { type: 'login_succeeded', userId: user.id, actorId: user.id, details: { method, session_id: session.id } });
    await ctx.em.flush();
    await markSessionActive(session);
    return issueTokens(user, session);
  }
}

export async function issueTokens(user: User, session: Session): Promise<AuthPayload> {
  const cfg = config();
  const [token, refreshToken] = await Promise.all([
    signToken({ sub: user.id, sid: session.id, typ: 'access' }, cfg.ACCESS_TOKEN_TTL_SECONDS),
    signToken(
      { sub: user.id, sid: session.id, typ: 'refresh', jti: session.refreshTokenId },
      Math.max(1, Math.floor((session.expiresAt.getTime() - clock.nowMs()) / 1000)),
    ),
  ]);
  signedInAs.add(user);
  return { user, token, refreshToken, tokenType: 'Bearer', expiresIn: cfg.ACCESS_TOKEN_TTL_SECONDS, mfaRequired: false };
}

/**
 * Makes sure the configured bootstrap administrator exists with the SUPER:ADMIN role. Starting again changes
 * nothing; an existing account keeps its password.
 */
export async function ensureBootstrapAdmin(em: EntityManager): Promise<void> {
  const { BOOTSTRAP_ADMIN_EMAIL: rawEmail, BOOTSTRAP_ADMIN_PASSWORD: password } = config();
  if (!rawEmail || !password) return;
  const email = normalizeEmail(rawEmail);
  const passwordHash = await hashPassword(password);
  const schema = em.config.get('schema');
  // One statement, so concurrent starts (split mode, replicas) cannot create two.
  await em.getConnection().execute(
    `insert into "${schema}".users (id, email, password_hash, first_name, last_name, registration_role, roles, status,
       email_verified_at, referral_code, created_at, updated_at)
     values (?, ?, ?, 'Platform', 'Administrator', 'STAFF', '{SUPER:ADMIN}', 'active', now(), ?, now(), now())
     on conflict (email) do update set roles = case when 'SUPER:ADMIN' = any(users.roles) then users.roles
       else array_append(users.roles, 'SUPER:ADMIN') end`,
    [randomUUID(), email, passwordHash, newReferralCode()],
  );
}
