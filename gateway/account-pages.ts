import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router, type Response } from 'express';
import { REPO_ROOT } from '../shared/paths';

/**
 * The pages the platform's mails link to, at the paths the links name (`{PUBLIC_URL}/verify-email?token=...`):
 * each completes its action by calling the REST API of this same origin (the email verification at once; the
 * password reset and the invitation with a form). Static files: the token is read by the page's script.
 */
const ACCOUNT_DIR = join(REPO_ROOT, 'gateway', 'pages', 'account');

/** Where the pages' script and style are served. */
export const ACCOUNT_ASSETS = '/account';

/** The mailed paths and their pages. */
export const MAILED_PAGES: Record<string, string> = {
  '/verify-email': 'verify-email.html',
  '/reset-password': 'reset-password.html',
  '/invitations/accept': 'accept-invitation.html',
};

/** This origin only, nothing inline; the forms are handled by the script (no form posts anywhere). */
const ACCOUNT_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function accountPages(): Router {
  const router = Router();
  for (const [path, file] of Object.entries(MAILED_PAGES)) {
    const html = readFileSync(join(ACCOUNT_DIR, file), 'utf8');
    router.get(path, (_req, res: Response) => {
      res.setHeader('Content-Security-Policy', ACCOUNT_POLICY);
      res.status(200).type('html').send(html);
    });
  }
  router.use(ACCOUNT_ASSETS, express.static(ACCOUNT_DIR, { index: false, redirect: false, extensions: [] }));
  return router;
}
