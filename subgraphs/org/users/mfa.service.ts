import { randomInt, randomUUID } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { clock } from '../../../shared/clock';
import { config } from '../../../shared/config';
import { errors } from '../../../shared/errors';
import { done, type ActionResult } from '../../../shared/model';
import { consume } from '../../../shared/rate-limit';
import { appRedis, redisKey } from '../../../shared/redis';
import { seal, unseal } from '../../../shared/secrets';
import { requireUser } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { sha256, signToken, verifyToken } from '../../../shared/tokens';
import { recordSecurityEvent, recordSecurityFailure } from '../security/security-log';
import type { AuthPayload, MfaActivation, MfaEnrollment } from './auth.types';
import { RecoveryCode } from './user-token.entity';
import { User, UserStatus } from './user.entity';

const ISSUER = 'Clinical Care Platform';
const PERIOD = 30;
const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function totp(secretBase32: string, label: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

const normalizeRecovery = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');

function newRecoveryCode(): string {
  const chars = Array.from({ length: 8 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
}

/**
 * TOTP multi-factor authentication (RFC 6238: SHA-1, 6 digits, 30 s, one step of drift either way).
 * Seeds are stored sealed; a code is accepted only for a time step later than the last one accepted, so it
 * cannot be replayed; recovery codes are stored hashed and work once; challenge tokens are short-lived and
 * single-use.
 */
export class MfaService {
  async enroll(ctx: SubgraphContext): Promise<MfaEnrollment> {
    const user = await this.currentUser(ctx);
    if (user.mfaEnabled) throw errors.conflict('MFA is already enabled; disable it first to enroll again');
    const secret = new OTPAuth.Secret({ size: 20 }).base32;
    user.mfaPendingSecret = await seal(secret);
    recordSecurityEvent(ctx, { type: 'mfa_enrollment_started', userId: user.id });
    await ctx.em.flush();
    const otpauthUri = totp(secret, user.email).toString();
    return { secret, otpauthUri, qrCode: await QRCode.toDataURL(otpauthUri) };
  }

  /** Turns MFA on after a correct code for the pending secret; answers the recovery codes, once. */
  async verify(ctx: SubgraphContext, code: string): Promise<MfaActivation> {
    const user = await this.currentUser(ctx);
    if (user.mfaEnabled) throw errors.conflict('MFA is already enabled');
    if (!user.mfaPendingSecret) throw errors.conflict('Start enrollment (mfa/enroll) before verifying a code');
    const step = this.stepOf(await unseal(user.mfaPendingSecret), user.email, code);
    if (step === null) throw errors.invalidField('code', 'is not a valid code for this secret');
    user.mfaSecret = user.mfaPendingSecret;
    user.mfaPendingSecret = null;
    user.mfaEnabled = true;
    user.mfaLastStep = String(step);
    await ctx.em.nativeDelete(RecoveryCode, { userId: user.id });
    const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    for (const rc of recoveryCodes) ctx.em.create(RecoveryCode, { userId: user.id, codeHash: sha256(normalizeRecovery(rc)) });
    recordSecurityEvent(ctx, { type: 'mfa_enabled', userId: user.id });
    await ctx.em.flush();
    return { enabled: true, recoveryCodes };
  }

  /** The answer to a correct password for an MFA account: no tokens yet, a challenge instead. */
  async challengeFor(user: User): Promise<AuthPayload> {
    const challengeToken = await signToken({ sub: user.id, typ: 'mfa', jti: randomUUID() }, config().MFA_CHALLENGE_TTL_SECONDS);
    return { user: null, token: null, refreshToken: null, tokenType: null, expiresIn: null, mfaRequired: true, challengeToken };
  }

  /** Completes an MFA login with a TOTP code or a recovery code. Returns the user whose session may start. */
  async completeChallenge(ctx: SubgraphContext, challengeToken: string, code: string): Promise<User> {
    await consume('auth', `mfa-challenge:ip:${ctx.ip ?? 'unknown'}`);
    let claims;
    try {
      claims = await verifyToken(challengeToken, 'mfa');
    } catch {
      throw errors.unauthorized('The sign-in challenge is invalid or has expired; sign in again');
    }
    const user = await ctx.em.findOne(User, { id: claims.sub }, { populate: ['mfaSecret'] });
    if (!user || !user.mfaEnabled || user.status !== UserStatus.active) throw errors.unauthorized('Sign in again');
    const how = await this.acceptCode(ctx, user, code);
    if (!how) {
      await recordSecurityFailure(ctx, { type: 'mfa_challenge_failed', userId: user.id, actorId: null });
      throw errors.unauthorized('Invalid code');
    }
    // Single use: a second completion of the same challenge is refused.
    const first = await appRedis().set(redisKey('mfa-challenge', claims.jti!), '1', 'EX', config().MFA_CHALLENGE_TTL_SECONDS, 'NX');
    if (first !== 'OK') throw errors.unauthorized('This sign-in challenge was already used; sign in again');
    if (how === 'recovery') recordSecurityEvent(ctx, { type: 'mfa_recovery_code_used', userId: user.id, actorId: user.id });
    return user;
  }

  /** Turns MFA off; needs a current code (or a recovery code). */
  async disable(ctx: SubgraphContext, code: string): Promise<ActionResult> {
    const user = await this.currentUser(ctx);
    if (!user.mfaEnabled) throw errors.conflict('MFA is not enabled');
    if (!(await this.acceptCode(ctx, user, code))) throw errors.invalidField('code', 'is not a valid current code');
    user.mfaEnabled = false;
    user.mfaSecret = null;
    user.mfaLastStep = null;
    await ctx.em.nativeDelete(RecoveryCode, { userId: user.id });
    recordSecurityEvent(ctx, { type: 'mfa_disabled', userId: user.id });
    await ctx.em.flush();
    return done('MFA disabled');
  }

  /** Accepts a fresh TOTP code (never one of an already used time step) or an unused recovery code. */
  private async acceptCode(ctx: SubgraphContext, user: User, code: string): Promise<'totp' | 'recovery' | null> {
    if (/^\d{6}$/.test(code)) {
      const step = this.stepOf(await unseal(user.mfaSecret!), user.email, code);
      if (step === null) return null;
      const advanced = await ctx.em.nativeUpdate(
        User,
        { id: user.id, $or: [{ mfaLastStep: null }, { mfaLastStep: { $lt: String(step) } }] },
        { mfaLastStep: String(step) },
      );
      return advanced === 1 ? 'totp' : null;
    }
    const hash = sha256(normalizeRecovery(code));
    const spent = await ctx.em.nativeUpdate(RecoveryCode, { userId: user.id, codeHash: hash, usedAt: null }, { usedAt: clock.now() });
    return spent >= 1 ? 'recovery' : null;
  }

  /** The time step a code belongs to (allowing one step of clock drift), or null when it is wrong. */
  private stepOf(secret: string, label: string, code: string): number | null {
    const timestamp = clock.nowMs();
    const delta = totp(secret, label).validate({ token: code, timestamp, window: 1 });
    return delta === null ? null : Math.floor(timestamp / 1000 / PERIOD) + delta;
  }

  private async currentUser(ctx: SubgraphContext): Promise<User> {
    const viewer = requireUser(ctx.viewer);
    const user = await ctx.em.findOne(User, { id: viewer.userId }, { populate: ['mfaSecret', 'mfaPendingSecret'] });
    if (!user) throw errors.notFound('User');
    return user;
  }
}
