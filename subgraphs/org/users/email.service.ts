import { clock } from '../../../shared/clock';
import { config } from '../../../shared/config';
import { errors } from '../../../shared/errors';
import { done, type ActionResult } from '../../../shared/model';
import { consume } from '../../../shared/rate-limit';
import type { SubgraphContext } from '../../../shared/subgraph';
import { randomToken, sha256 } from '../../../shared/tokens';
import { sendMail } from '../mail/send-mail';
import { recordSecurityEvent } from '../security/security-log';
import { forgetUser } from './identity';
import { hashPassword } from './passwords';
import { revokeSessions } from './sessions';
import { UserToken, UserTokenPurpose } from './user-token.entity';
import { User, UserStatus } from './user.entity';

const RESET_ANSWER = 'If an account exists for this email, a password reset link has been sent';

/**
 * Email verification and password reset. Tokens travel only by mail, are stored as SHA-256, expire, and work once.
 */
export class EmailService {
  /** Creates a verification token with the caller's next flush; send it with `sendVerification` after. */
  verificationToken(ctx: SubgraphContext, user: User): string {
    return this.issue(ctx, user, UserTokenPurpose.verify_email, config().EMAIL_TOKEN_TTL_SECONDS);
  }

  async sendVerification(ctx: SubgraphContext, user: User, token: string): Promise<void> {
    const link = new URL('/verify-email', config().PUBLIC_URL);
    link.searchParams.set('token', token);
    await this.send(ctx, user.email, 'verify_email', 'Confirm your email address', `Confirm your email address: ${link}`, {
      token,
      link: link.toString(),
    });
  }

  async verifyEmail(ctx: SubgraphContext, token: string): Promise<ActionResult> {
    const used = await this.use(ctx, token, UserTokenPurpose.verify_email);
    const user = await ctx.em.findOneOrFail(User, { id: used.userId });
    user.emailVerifiedAt ??= clock.now();
    recordSecurityEvent(ctx, { type: 'email_verified', userId: user.id, actorId: user.id });
    await ctx.em.flush();
    return done('Email address verified');
  }

  /** Answers the same whether or not the email belongs to an account. */
  async forgotPassword(ctx: SubgraphContext, email: string): Promise<ActionResult> {
    await consume('auth', `forgot-password:ip:${ctx.ip ?? 'unknown'}`);
    const user = await ctx.em.findOne(User, { email: email.trim().toLowerCase(), status: UserStatus.active });
    if (user) {
      const token = this.issue(ctx, user, UserTokenPurpose.reset_password, config().RESET_TOKEN_TTL_SECONDS);
      recordSecurityEvent(ctx, { type: 'password_reset_requested', userId: user.id, actorId: null });
      await ctx.em.flush();
      const link = new URL('/reset-password', config().PUBLIC_URL);
      link.searchParams.set('token', token);
      await this.send(
        ctx,
        user.email,
        'reset_password',
        'Reset your password',
        `Reset your password: ${link}\nThe link works once, for one hour.`,
        {
          token,
          link: link.toString(),
        },
      );
    }
    return done(RESET_ANSWER);
  }

  /** Sets a new password, ends every session of the account, and spends the token and any other reset tokens. */
  async resetPassword(ctx: SubgraphContext, token: string, password: string): Promise<ActionResult> {
    const used = await this.use(ctx, token, UserTokenPurpose.reset_password);
    const user = await ctx.em.findOneOrFail(User, { id: used.userId });
    user.passwordHash = await hashPassword(password);
    user.emailVerifiedAt ??= clock.now();
    await ctx.em.nativeUpdate(
      UserToken,
      { userId: user.id, purpose: UserTokenPurpose.reset_password, usedAt: null },
      { usedAt: clock.now() },
    );
    const ended = await revokeSessions(ctx.em, { userId: user.id });
    recordSecurityEvent(ctx, { type: 'password_reset', userId: user.id, actorId: null, details: { sessions_ended: ended } });
    await ctx.em.flush();
    await forgetUser(user.id);
    return done('Password changed; sign in with the new password');
  }

  private issue(ctx: SubgraphContext, user: User, purpose: UserTokenPurpose, ttlSeconds: number): string {
    const token = randomToken(32);
    ctx.em.create(UserToken, {
      userId: user.id,
      purpose,
      tokenHash: sha256(token),
      expiresAt: new Date(clock.nowMs() + ttlSeconds * 1000),
    });
    return token;
  }

  /** Spends a token: only one caller can, and only before it expires. */
  private async use(ctx: SubgraphContext, token: string, purpose: UserTokenPurpose): Promise<UserToken> {
    const found = await ctx.em.findOne(UserToken, { tokenHash: sha256(token.trim()), purpose });
    const spent =
      found && found.expiresAt > clock.now()
        ? await ctx.em.nativeUpdate(UserToken, { id: found.id, usedAt: null }, { usedAt: clock.now() })
        : 0;
    if (!found || spent !== 1) throw errors.invalidField('token', 'is invalid, expired or already used');
    return found;
  }

  /** Sends after the change committed. */
  private send(
    ctx: SubgraphContext,
    to: string,
    template: string,
    subject: string,
    text: string,
    data: Record<string, string>,
  ): Promise<void> {
    return sendMail(ctx.em, { to, subject, text, template, data });
  }
}
