/**
 * `npm run sandbox:oidc`: a stand-in OpenID Connect provider on loopback for trying social login without the
 * internet. It prints the OIDC_PROVIDERS value to start the platform with, and how to get an ID token.
 */
import { startOidcSandbox } from '../shared/adapters/oidc-sandbox';

async function main() {
  const port = Number(process.env.OIDC_SANDBOX_PORT ?? 4700);
  const sandbox = await startOidcSandbox({ port });
  console.log(`sandbox OpenID Connect provider at ${sandbox.provider.issuer}`);
  console.log(`start the platform with:\n  OIDC_PROVIDERS='${JSON.stringify([sandbox.provider])}' npm start`);
  console.log(
    `get an ID token:\n  curl -s -X POST ${sandbox.provider.issuer}/token -d '{"sub":"u1","email":"you@example.com","email_verified":true}'`,
  );
  console.log('then POST /api/auth/social-login with {"provider":"sandbox","id_token":"..."}');
  process.on('SIGINT', () => void sandbox.close().then(() => process.exit(0)));
  process.on('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
}

void main();
