import { Matches, MaxLength, MinLength } from 'class-validator';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { IsEmailAddress, IsOneOf, IsStrongPassword, IsText } from '../../../shared/validation';
import { PayloadOf } from '../../../shared/user-errors';
import { enumOf } from '../../../shared/enums';
import { REGISTRATION_ROLES, RegistrationRole, User } from './user.entity';

/** How the access token is sent: always `Bearer` (the `Authorization` header's scheme). */
export const TokenType = enumOf(['Bearer'], 'TokenType', 'How an access token is sent: `Authorization: Bearer <token>`');

@InputType({ description: 'The fields of a new account' })
export class RegisterInput {
  @Field()
  @IsEmailAddress()
  email!: string;

  @Field()
  @IsStrongPassword()
  password!: string;

  @Field()
  @IsText(100)
  firstName!: string;

  @Field()
  @IsText(100)
  lastName!: string;

  @Field(() => RegistrationRole, { nullable: true, description: `One of ${REGISTRATION_ROLES.join(', ')}; PATIENT when omitted` })
  @IsOneOf(REGISTRATION_ROLES)
  registrationRole?: string;

  @Field({ nullable: true, description: "Another user's referral code" })
  @IsText(32)
  referralCode?: string;
}

@InputType({ description: 'Email and password' })
export class LoginInput {
  @Field()
  @MinLength(1, { message: 'is required' })
  @MaxLength(254, { message: 'must be at most 254 characters' })
  email!: string;

  @Field()
  @MinLength(1, { message: 'is required' })
  @MaxLength(128, { message: 'must be at most 128 characters' })
  password!: string;
}

@InputType({ description: 'The provider and the token it issued' })
export class SocialLoginInput {
  @Field({ description: 'A configured OpenID Connect provider' })
  @IsText(50)
  provider!: string;

  @Field({ description: "The provider's ID token (a signed JWT)" })
  @MinLength(1, { message: 'is required' })
  @MaxLength(8192, { message: 'is too long' })
  idToken!: string;

  @Field(() => RegistrationRole, { nullable: true, description: 'Role of the account when this login creates it; PATIENT when omitted' })
  @IsOneOf(REGISTRATION_ROLES)
  registrationRole?: string;
}

/**
 * The answer of every sign-in (register, login, refresh, social login, MFA challenge). For an account with MFA,
 * login answers `mfaRequired` and a `challengeToken` instead of tokens.
 */
@ObjectType({ description: 'What signing in answers: the user, an access token and a refresh token (or an MFA challenge)' })
export class AuthPayload {
  @Field(() => User, { nullable: true })
  user?: User | null;

  @Field(() => String, { nullable: true, description: 'PASETO v4.public access token: `Authorization: Bearer <token>`' })
  token?: string | null;

  @Field(() => String, { nullable: true, description: 'PASETO v4.public refresh token for POST /api/auth/refresh' })
  refreshToken?: string | null;

  @Field(() => TokenType, { nullable: true, description: 'Bearer: how the access token is sent (null with an MFA challenge)' })
  tokenType?: 'Bearer' | null;

  @Field(() => Int, { nullable: true, description: 'Seconds until the access token expires' })
  expiresIn?: number | null;

  @Field(() => Boolean, { description: 'True when a TOTP code must be sent to /api/auth/mfa/challenge' })
  mfaRequired!: boolean;

  @Field(() => String, { nullable: true, description: 'Short-lived token for /api/auth/mfa/challenge' })
  challengeToken?: string | null;
}

@ObjectType({
  description: 'What register answers: the new session (the user and tokens), or what the user must fix (an email taken, a weak password)',
})
export class RegisterPayload extends PayloadOf(AuthPayload, 'session') {}

@ArgsType()
export class RefreshArgs {
  @Field({ description: 'The refresh token of the session, as last answered; it is replaced on each use' })
  @MinLength(1, { message: 'is required' })
  refreshToken!: string;
}

@ArgsType()
export class TokenArgs {
  @Field({ description: 'The token from the email' })
  @MinLength(1, { message: 'is required' })
  @MaxLength(200, { message: 'is too long' })
  token!: string;
}

@ArgsType()
export class EmailArgs {
  @Field({ description: "The account's email address" })
  @IsEmailAddress()
  email!: string;
}

@ArgsType()
export class ResetPasswordArgs extends TokenArgs {
  @Field({ description: 'The new password' })
  @IsStrongPassword()
  password!: string;
}

@ArgsType()
export class ReferralArgs {
  @Field({ description: 'The referral code, up to 32 characters; case and surrounding spaces ignored' })
  @IsText(32)
  code!: string;
}

@ObjectType({ description: 'The user a referral code belongs to (names only)' })
export class Referrer {
  @Field()
  firstName!: string;

  @Field()
  lastName!: string;
}

@ObjectType({ description: 'A referral code: whether it is valid, and whose it is' })
export class ReferralInfo {
  @Field()
  code!: string;

  @Field(() => Boolean)
  valid!: boolean;

  @Field(() => Referrer, { nullable: true, description: 'Who owns the code (name only)' })
  referrer?: Referrer | null;
}

@ArgsType()
export class CodeArgs {
  @Field({ description: 'A 6-digit TOTP code, or (where accepted) a recovery code' })
  @Matches(/^(\d{6}|[A-Za-z0-9]{4}-?[A-Za-z0-9]{4})$/, { message: 'must be a 6-digit code or a recovery code' })
  code!: string;
}

@ArgsType()
export class ChallengeArgs extends CodeArgs {
  @Field({ description: 'The challengeToken login answered when MFA is required; short-lived' })
  @MinLength(1, { message: 'is required' })
  challengeToken!: string;
}

@ObjectType({ description: 'A started MFA enrollment: the TOTP secret and its otpauth URI' })
export class MfaEnrollment {
  @Field({ description: 'The TOTP secret, base32' })
  secret!: string;

  @Field({ description: 'otpauth:// URI for authenticator apps' })
  otpauthUri!: string;

  @Field({ description: 'The URI as a QR code image (PNG data URL)' })
  qrCode!: string;
}

@ObjectType({ description: 'The answer to verifying an MFA enrollment: MFA is on, with recovery codes' })
export class MfaActivation {
  @Field(() => Boolean)
  enabled!: boolean;

  @Field(() => [String], { description: 'One-time recovery codes, shown only now' })
  recoveryCodes!: string[];
}
