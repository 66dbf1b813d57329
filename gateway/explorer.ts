import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import express, { Router, type Request, type Response } from 'express';
import { REPO_ROOT } from '../shared/paths';

/** Where the explorer's files are served: GraphiQL's prebuilt bundle, React, and the page's own script and style. */
export const EXPLORER_ASSETS = '/explorer';

/** The page and its script and style: files, since the page's policy allows no inline script or style. */
const EXPLORER_DIR = join(REPO_ROOT, 'gateway', 'pages', 'explorer');

/** Everything from this origin, nothing inline, nothing from anywhere else (GraphiQL's fonts are data: URLs). */
const EXPLORER_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** The explorer's static files, straight from the installed packages: nothing is fetched from a CDN. */
export function explorerAssets(): Router {
  const files = { index: false, redirect: false } as const;
  const router = Router();
  router.use(`${EXPLORER_ASSETS}/graphiql`, express.static(packageDir('graphiql'), files));
  router.use(`${EXPLORER_ASSETS}/react`, express.static(join(packageDir('react'), 'umd'), files));
  router.use(`${EXPLORER_ASSETS}/react-dom`, express.static(join(packageDir('react-dom'), 'umd'), files));
  router.use(EXPLORER_ASSETS, express.static(EXPLORER_DIR, files));
  return router;
}

/**
 * The explorer page (GraphiQL) for a browser's `GET /graphql`. Without introspection it asks for no schema, so it
 * shows no introspection error; queries run all the same.
 */
export function explorerPage(introspection: boolean) {
  const html = readFileSync(join(EXPLORER_DIR, 'index.html'), 'utf8').replace(
    'data-introspection="false"',
    `data-introspection="${introspection}"`,
  );
  return (_req: Request, res: Response) => {
    res.setHeader('Content-Security-Policy', EXPLORER_POLICY);
    res.status(200).type('html').send(html);
  };
}
