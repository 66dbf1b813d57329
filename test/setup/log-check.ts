import { existsSync, readFileSync, rmSync } from 'node:fs';
import { SAMPLE_PATIENT, PASSWORD } from '../support/app';

/**
 * What must never be in a log: the patient data every suite registers (the sample patient's name, date of birth,
 * phone and email), passwords, access tokens and API key secrets. The whole run logs into one file at info level
 * (test/setup/global-setup.ts); this reads it at the end and fails the run when any of them is found.
 */
const PLANTED: [string, RegExp][] = [
  ['a patient name', new RegExp(SAMPLE_PATIENT.last_name)],
  ['a date of birth', new RegExp(SAMPLE_PATIENT.date_of_birth)],
  ['a patient phone', new RegExp(SAMPLE_PATIENT.phone.replace('+', '\\+'))],
  ['a patient email', new RegExp(SAMPLE_PATIENT.email)],
  ['a password', new RegExp(`${PASSWORD}|${process.env.BOOTSTRAP_ADMIN_PASSWORD ?? 'Admin-pass-2026'}`)],
  ['an access or refresh token', /v4\.public\.[A-Za-z0-9_-]{20,}/],
  // A developer key is `ccp_` and 32 random bytes in base64url (43 characters); the run's own database and Redis prefix
  // (`ccp_test_<run>...`) are not secrets.
  ['an API key secret', /ccp_(?!test_)[A-Za-z0-9_-]{43}/],
];

export function checkRunLog(file: string | undefined): void {
  if (!file || !existsSync(file)) return;
  const text = readFileSync(file, 'utf8');
  const found = PLANTED.flatMap(([what, pattern]) => {
    const line = text.split('\n').find((l) => pattern.test(l));
    return line ? [`${what}: ${line.slice(0, 300)}`] : [];
  });
  if (found.length) {
    throw new Error(`The test run's log (${file}) holds what it must never hold:\n${found.join('\n')}`);
  }
  if (!process.env.KEEP_TEST_LOG) rmSync(file, { force: true });
}
