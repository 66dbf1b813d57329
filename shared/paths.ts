import { join, resolve, sep } from 'node:path';

/** The repository root, whether code runs from source (tests) or from dist/ (npm start). */
export const REPO_ROOT = resolve(__dirname, __dirname.split(sep).includes('dist') ? '../..' : '..');

export const SCHEMA_DIR = join(REPO_ROOT, 'schema');
