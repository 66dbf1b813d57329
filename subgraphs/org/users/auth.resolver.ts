import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ActionResult } from '../../../shared/model';
import { Public } from '../../../shared/public';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import {
  AuthPayload,
  ChallengeArgs,
  CodeArgs,
  EmailArgs,
  LoginInput,
  MfaActivation,
  MfaEnrollment,
  ReferralArgs,
  ReferralInfo,
  RefreshArgs,
  RegisterInput,
  RegisterPayload,
  ResetPasswordArgs,
  SocialLoginInput,
  TokenArgs,
} from './auth.types';
import { AuthService } from './auth.service';
import { EmailService } from './email.service';
import { MfaService } from './mfa.service';
import { User } from './user.entity';

@Resolver(() => User)
export class AuthResolver {
  private readonly service = new AuthService();
  private readonly email = new EmailService();
  private readonly mfa = new MfaService();

  @Public()
  @PayloadMutation(RegisterPayload, {
    description: 'Create an account and sign in; a verification email is sent. An email taken or a weak password is a user error',
  })
  register(@Arg('input', { description: 'The new account' }) input: RegisterInput, @Ctx() ctx: SubgraphContext) {
    return this.service.register(ctx, input);
  }

  @Public()
  @Mutation(() => AuthPayload, { description: 'Sign in with email and password (MFA accounts get a challenge)' })
  login(@Arg('input', { description: 'The credentials' }) input: LoginInput, @Ctx() ctx: SubgraphContext) {
    return this.service.login(ctx, input);
  }

  @Public()
  @Mutation(() => AuthPayload, { description: 'New tokens for a refresh token; the old refresh token stops working' })
  refreshSession(@Args() args: RefreshArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.refresh(ctx, args.refreshToken);
  }

  @Mutation(() => ActionResult, { description: "End the caller's session" })
  logout(@Ctx() ctx: SubgraphContext) {
    return this.service.logout(ctx);
  }

  @Public()
  @Query(() => User, { description: 'The signed-in user' })
  me(@Ctx() ctx: SubgraphContext) {
    return this.service.me(ctx);
  }

  @Public()
  @Mutation(() => ActionResult, { description: 'Confirm an email address with the token from the mail' })
  verifyEmail(@Args() args: TokenArgs, @Ctx() ctx: SubgraphContext) {
    return this.email.verifyEmail(ctx, args.token);
  }

  @Public()
  @Mutation(() => ActionResult, { description: 'Mail a password reset link; answers the same for unknown emails' })
  requestPasswordReset(@Args() args: EmailArgs, @Ctx() ctx: SubgraphContext) {
    return this.email.forgotPassword(ctx, args.email);
  }

  @Public()
  @Mutation(() => ActionResult, { description: 'Set a new password with a reset token; ends every session' })
  resetPassword(@Args() args: ResetPasswordArgs, @Ctx() ctx: SubgraphContext) {
    return this.email.resetPassword(ctx, args.token, args.password);
  }

  @Public()
  @Mutation(() => AuthPayload, { description: 'Sign in with an OpenID Connect ID token from a configured provider' })
  socialLogin(@Arg('input', { description: 'The provider and its ID token' }) input: SocialLoginInput, @Ctx() ctx: SubgraphContext) {
    return this.service.socialLogin(ctx, input);
  }

  @Public()
  @Query(() => ReferralInfo, { description: 'Whether a referral code is valid, and whose it is (name only)' })
  referral(@Args() args: ReferralArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.referral(ctx, args.code);
  }

  @Mutation(() => MfaEnrollment, { description: 'Start TOTP enrollment: a secret, its otpauth URI and a QR code' })
  enrollMfa(@Ctx() ctx: SubgraphContext) {
    return this.mfa.enroll(ctx);
  }

  @Mutation(() => MfaActivation, { description: 'Turn MFA on with a code from the authenticator; answers recovery codes' })
  verifyMfa(@Args() args: CodeArgs, @Ctx() ctx: SubgraphContext) {
    return this.mfa.verify(ctx, args.code);
  }

  @Public()
  @Mutation(() => AuthPayload, { description: 'Complete an MFA sign-in with a TOTP or recovery code' })
  async completeMfaChallenge(@Args() args: ChallengeArgs, @Ctx() ctx: SubgraphContext) {
    const user = await this.mfa.completeChallenge(ctx, args.challengeToken, args.code);
    return this.service.startSession(ctx, user, 'mfa');
  }

  @Mutation(() => ActionResult, { description: 'Turn MFA off; needs a current code' })
  disableMfa(@Args() args: CodeArgs, @Ctx() ctx: SubgraphContext) {
    return this.mfa.disable(ctx, args.code);
  }

  @FieldResolver(() => Boolean)
  emailVerified(@Root() user: User): boolean {
    return !!user.emailVerifiedAt;
  }
}
