/**
 * Prints how much of the public schema (schema/public.graphql) has descriptions, by kind, and with `--missing` the
 * required ones still missing (types, enums, root fields, root arguments); `--write` rewrites schema/descriptions-missing.txt
 * with them (to shrink it after adding descriptions: test/descriptions.test.ts fails on a new gap).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_DIR } from '../shared/paths';
import { coverageOfSdl, MISSING_LIST, renderCoverage, renderMissingList } from './schema-descriptions';

const coverage = coverageOfSdl(readFileSync(join(SCHEMA_DIR, 'public.graphql'), 'utf8'));
console.log(renderCoverage(coverage));
console.log(`required and missing: ${coverage.required.length}`);
if (process.argv.includes('--missing')) console.log(coverage.required.join('\n'));
if (process.argv.includes('--write')) writeFileSync(join(SCHEMA_DIR, MISSING_LIST), renderMissingList(coverage));
