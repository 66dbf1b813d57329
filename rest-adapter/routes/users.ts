import { defineRoutes } from '../route';

export default defineRoutes('Auth and admin', [
  {
    method: 'POST',
    path: '/api/auth/register',
    operation: 'Register',
    summary: 'Register a new user',
    description:
      'Creates the account, mails an email verification link and signs it in: the answer is shaped like login ' +
      '(`user`, `token`, `refresh_token`). `referral_code` records who referred the user.',
    status: 201,
    access: 'public',
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    operation: 'Login',
    summary: 'Authenticate and receive tokens',
    description:
      'For an account with MFA the answer has no tokens but `mfa_required: true` and a `challenge_token` for ' +
      '`/api/auth/mfa/challenge`.',
    access: 'public',
  },
  {
    method: 'POST',
    path: '/api/auth/refresh',
    operation: 'RefreshSession',
    summary: 'Refresh an expired access token',
    description: 'Body `refresh_token`. Answers new tokens; the old refresh token stops working, and using it again ends the session.',
    access: 'public',
  },
  { method: 'POST', path: '/api/auth/logout', operation: 'Logout', summary: 'Invalidate the current session' },
  { method: 'GET', path: '/api/auth/me', operation: 'Me', summary: 'Get the current authenticated user' },
  {
    method: 'POST',
    path: '/api/auth/verify-email',
    operation: 'VerifyEmail',
    summary: 'Verify an email address with the token from the mail (body `token`)',
    access: 'public',
  },
  {
    method: 'GET',
    path: '/api/auth/verify-email',
    operation: 'VerifyEmail',
    summary: 'Verify an email address from the mailed link (`?token=`)',
    access: 'public',
  },
  {
    method: 'POST',
    path: '/api/auth/forgot-password',
    operation: 'ForgotPassword',
    summary: 'Request a password reset email; answers the same whether or not the email is known',
    access: 'public',
  },
  {
    method: 'POST',
    path: '/api/auth/reset-password',
    operation: 'ResetPassword',
    summary: 'Reset the password with the mailed token (`token`, `password`); ends every session',
    access: 'public',
  },
  {
    method: 'POST',
    path: '/api/auth/social-login',
    operation: 'SocialLogin',
    summary: 'Sign in with an OpenID Connect ID token (`provider`, `id_token`)',
    access: 'public',
  },
  {
    method: 'GET',
    path: '/api/auth/referral/:code',
    operation: 'Referral',
    summary: 'Look up a referral code: whether it is valid and who owns it (name only)',
    access: 'public',
  },
  { method: 'POST', path: '/api/auth/mfa/enroll', operation: 'EnrollMfa', summary: 'Enroll in TOTP MFA: secret, otpauth URI, QR code' },
  {
    method: 'POST',
    path: '/api/auth/mfa/verify',
    operation: 'VerifyMfa',
    summary: 'Verify MFA enrollment with a TOTP `code`; answers the recovery codes, once',
  },
  {
    method: 'POST',
    path: '/api/auth/mfa/challenge',
    operation: 'CompleteMfaChallenge',
    summary: 'Complete an MFA sign-in (`challenge_token`, `code`: TOTP or recovery code)',
    access: 'public',
  },
  { method: 'POST', path: '/api/auth/mfa/disable', operation: 'DisableMfa', summary: 'Disable MFA; needs a current `code`' },
]);
