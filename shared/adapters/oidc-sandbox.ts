import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

/**
 * A stand-in OpenID Connect provider on loopback: it publishes its signing keys as a JWKS and mints ID tokens the
 * way a real provider would, so social login runs end to end without the internet. Tests start one; developers
 * run `npm run sandbox:oidc` and put the printed provider in OIDC_PROVIDERS.
 */
export interface OidcSandbox {
  /** The provider entry for OIDC_PROVIDERS. */
  provider: { name: string; issuer: string; jwks_uri: string; client_id: string };
  mintIdToken(claims: Record<string, unknown> & { sub: string }, opts?: { expiresInSeconds?: number; audience?: string }): Promise<string>;
  close(): Promise<void>;
}

export async function startOidcSandbox(opts: { port?: number; name?: string; clientId?: string } = {}): Promise<OidcSandbox> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'sandbox-1', alg: 'ES256', use: 'sig' };
  let mint: OidcSandbox['mintIdToken'] = async () => '';
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/jwks') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ keys: [jwk] }));
    }
    // Stands in for the provider's sign-in: POST the claims you want ({"sub","email","email_verified",...}).
    if (req.method === 'POST' && req.url === '/token') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', async () => {
        try {
          const claims = JSON.parse(body || '{}');
          if (typeof claims.sub !== 'string') throw new Error('sub is required');
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id_token: await mint(claims) }));
        } catch (err) {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: (err as Error).message }));
        }
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = { name: opts.name ?? 'sandbox', issuer: base, jwks_uri: `${base}/jwks`, client_id: opts.clientId ?? 'ccp-sandbox' };
  mint = (claims, o = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: 'sandbox-1' })
      .setIssuer(provider.issuer)
      .setAudience(o.audience ?? provider.client_id)
      .setIssuedAt()
      .setExpirationTime(`${o.expiresInSeconds ?? 600}s`)
      .sign(privateKey);
  return {
    provider,
    mintIdToken: (claims, o = {}) => mint(claims, o),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
