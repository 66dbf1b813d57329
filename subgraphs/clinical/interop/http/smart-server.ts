import { createECDH, createHash, createHmac } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import { Router as router } from 'express';
import type Provider from 'oidc-provider';
import type { Adapter, AdapterPayload, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { config } from '../../../../shared/config';
import { logger } from '../../../../shared/logger';
import { appRedis, deleteKeys, redisKey } from '../../../../shared/redis';
import { tokenKeys, verifyToken } from '../../../../shared/tokens';
import { fhirBaseUrl } from '../fhir';
import { SMART_LAUNCH_PURPOSE } from '../interop.service';

/**
 * The SMART App Launch 2.x authorization server: OAuth 2.0 authorization code flow with PKCE (S256 only; the library
 * refuses `plain`), for the public SMART apps configured in SMART_CLIENTS, mounted at `/oauth2`. Only EHR launch: an
 * authorization must carry the `launch` handle the platform gave when a signed-in user launched the app
 * (`/api/smart/launch`); it names the user, the patient and encounter, and the app, and is accepted once. Its state
 * (codes, tokens, grants) lives in Redis; its signing and cookie keys derive from the platform's internal secret, so
 * every replica shares them.
 */

export const OAUTH_MOUNT = '/oauth2';
export const FHIR_TYPES = ['Patient', 'Observation', 'AllergyIntolerance', 'MedicationRequest', 'Immunization'] as const;
/** SMART v1 (`read`) and v2 (`r`, `s`, `rs`) scopes for each served type and `*`, patient- and user-level. */
export const RESOURCE_SCOPES = ['patient', 'user'].flatMap((level) =>
  [...FHIR_TYPES, '*'].flatMap((t) => ['read', 'rs', 'r', 's'].map((a) => `${level}/${t}.${a}`)),
);
export const OIDC_SCOPES = ['openid', 'launch', 'launch/patient', 'launch/encounter', 'offline_access', 'online_access'];

export interface SmartContext {
  userId: string;
  sessionId: string;
  patient: string;
  encounter?: string;
  launchId: string;
}

export function smartEndpoints() {
  const base = `${config().PUBLIC_URL.replace(/\/+$/, '')}${OAUTH_MOUNT}`;
  return {
    issuer: base,
    authorization_endpoint: `${base}/auth`,
    token_endpoint: `${base}/token`,
    revocation_endpoint: `${base}/token/revocation`,
    jwks_uri: `${base}/jwks`,
  };
}

/** `/.well-known/smart-configuration` (SMART App Launch 2.x, section "SMART configuration"). */
export function smartConfiguration() {
  const e = smartEndpoints();
  return {
    ...e,
    grant_types_supported: ['authorization_code', 'refresh_token'],
    response_types_supported: ['code'],
    token_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [...OIDC_SCOPES, ...RESOURCE_SCOPES],
    code_challenge_methods_supported: ['S256'],
    capabilities: [
      'launch-ehr',
      'context-ehr-patient',
      'context-ehr-encounter',
      'client-public',
      'permission-patient',
      'permission-user',
      'permission-offline',
      'permission-v1',
      'permission-v2',
    ],
  };
}

/** Oidc-provider's storage in Redis (its models: codes, tokens, grants, sessions, interactions). */
class RedisAdapter implements Adapter {
  constructor(private readonly model: string) {}

  private key(id: string) {
    return redisKey('oidc', this.model, id);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    // Separate commands, not MULTI: the keys lie in different slots of a Redis Cluster. The grant's member list is
    // written after the member, so a revocation never misses a member it could find.
    const redis = appRedis();
    const ttl = Math.max(1, Math.ceil(expiresIn || 0));
    if (expiresIn) await redis.set(this.key(id), JSON.stringify(payload), 'EX', ttl);
    else await redis.set(this.key(id), JSON.stringify(payload));
    const more: Promise<unknown>[] = [];
    if (payload.grantId) {
      const grant = redisKey('oidc', 'grant-members', payload.grantId);
      more.push(redis.rpush(grant, this.key(id)).then(() => redis.expire(grant, REFRESH_TTL)));
    }
    if (payload.uid) more.push(redis.set(redisKey('oidc', this.model, 'uid', payload.uid), id, 'EX', ttl));
    await Promise.all(more);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const raw = await appRedis().get(this.key(id));
    return raw ? (JSON.parse(raw) as AdapterPayload) : undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const id = await appRedis().get(redisKey('oidc', this.model, 'uid', uid));
    return id ? this.find(id) : undefined;
  }

  async findByUserCode(): Promise<AdapterPayload | undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    const redis = appRedis();
    const found = await this.find(id);
    if (!found) return;
    const ttl = await redis.ttl(this.key(id));
    await redis.set(this.key(id), JSON.stringify({ ...found, consumed: Math.floor(Date.now() / 1000) }), 'EX', Math.max(ttl, 1));
  }

  async destroy(id: string): Promise<void> {
    await appRedis().del(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    const redis = appRedis();
    const grant = redisKey('oidc', 'grant-members', grantId);
    const keys = await redis.lrange(grant, 0, -1);
    await deleteKeys(redis, [...keys, grant]);
  }
}

/** The launch context of a grant, kept beside the grant as long as its refresh tokens may live. */
const contextKey = (grantId: string) => redisKey('smart', 'grant-context', grantId);

export async function grantContext(grantId: string | undefined): Promise<SmartContext | null> {
  if (!grantId) return null;
  const raw = await appRedis().get(contextKey(grantId));
  return raw ? (JSON.parse(raw) as SmartContext) : null;
}

/** An ES256 key and cookie keys derived from the internal secret: the same on every replica, never stored. */
async function derivedKeys() {
  const { internalSecret } = await tokenKeys();
  const d = createHmac('sha256', internalSecret).update('smart-id-token-signing-key').digest();
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const pub = ecdh.getPublicKey();
  const x = pub.subarray(1, 33).toString('base64url');
  const y = pub.subarray(33).toString('base64url');
  const kid = createHash('sha256').update(`${x}.${y}`).digest('base64url').slice(0, 16);
  const cookie = createHmac('sha256', internalSecret).update('smart-cookie-key').digest('base64url');
  return { jwk: { kty: 'EC', crv: 'P-256', d: d.toString('base64url'), x, y, use: 'sig', alg: 'ES256', kid }, cookie };
}

const REFRESH_TTL = 14 * 86400;

export interface SmartServer {
  /** The authorization server, built on first use (loading the library takes seconds; most processes never need it). */
  provider(): Promise<Provider>;
  router: Router;
}

export function smartServer(): SmartServer {
  let built: Promise<{ provider: Provider; callback: ReturnType<Provider['callback']> }> | undefined;
  const build = () =>
    (built ??= buildProvider()
      .then((provider) => ({ provider, callback: provider.callback() }))
      .catch((err) => {
        built = undefined;
        throw err;
      }));
  const r = router();
  r.get(`${OAUTH_MOUNT}/interaction/:uid`, (req, res) => {
    build()
      .then((b) => interaction(b.provider, fhirBaseUrl(), req, res))
      .catch((err) => {
        logger.error({ err }, 'SMART authorization server unavailable');
        if (!res.headersSent) res.status(503).json({ error: 'temporarily_unavailable' });
      });
  });
  r.use(OAUTH_MOUNT, (req, res) => {
    build()
      .then((b) => b.callback(req, res))
      .catch((err) => {
        logger.error({ err }, 'SMART authorization server unavailable');
        if (!res.headersSent) res.status(503).json({ error: 'temporarily_unavailable' });
      });
  });
  return { provider: () => build().then((b) => b.provider), router: r };
}

async function buildProvider(): Promise<Provider> {
  const { default: ProviderClass, errors: oidcErrors } = await import('oidc-provider');
  const cfg = config();
  const fhirBase = fhirBaseUrl();
  const keys = await derivedKeys();
  const configuration: Configuration = {
    adapter: RedisAdapter,
    clients: cfg.SMART_CLIENTS.map((c) => ({
      client_id: c.client_id,
      client_name: c.name,
      redirect_uris: c.redirect_uris,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
    })),
    clientBasedCORS: () => true,
    pkce: { required: () => true },
    scopes: OIDC_SCOPES,
    claims: { openid: ['sub'] },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => fhirBase,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== fhirBase) throw new oidcErrors.InvalidTarget();
          return {
            scope: RESOURCE_SCOPES.join(' '),
            audience: fhirBase,
            accessTokenTTL: cfg.SMART_ACCESS_TOKEN_TTL_SECONDS,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    extraParams: ['launch', 'aud'],
    interactions: { url: (_ctx, interaction) => `${OAUTH_MOUNT}/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    cookies: { keys: [keys.cookie], long: { signed: true }, short: { signed: true } },
    jwks: { keys: [keys.jwk as never] },
    ttl: {
      AccessToken: cfg.SMART_ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 600,
      Session: 3600,
      Grant: REFRESH_TTL,
      RefreshToken: REFRESH_TTL,
    },
    issueRefreshToken: async (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    renderError: async (ctx, out) => {
      ctx.type = 'application/json';
      ctx.body = out;
    },
  };
  const provider = new ProviderClass(smartEndpoints().issuer, configuration);
  provider.on('server_error', (_ctx, err) => logger.error({ err }, 'SMART authorization server error'));

  // SMART apps ask for offline_access without prompt=consent, which OpenID Connect requires for it: the launch is the
  // consent here (a signed-in user started it), so the prompt is added for them.
  provider.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path.endsWith('/auth')) {
      const scope = String(ctx.query.scope ?? '').split(' ');
      if (scope.includes('offline_access') && !ctx.query.prompt) ctx.query = { ...ctx.query, prompt: 'consent' };
    }
    await next();
  });

  // The token response carries the launch context (SMART: `patient`, `encounter`) and every granted scope.
  provider.use(async (ctx: KoaContextWithOIDC, next) => {
    await next();
    const body = ctx.body as Record<string, unknown> | undefined;
    if (ctx.oidc?.route !== 'token' || ctx.status !== 200 || typeof body?.access_token !== 'string') return;
    const token = await provider.AccessToken.find(body.access_token);
    const context = await grantContext(token?.grantId);
    if (context) {
      body.patient = context.patient;
      if (context.encounter) body.encounter = context.encounter;
      body.need_patient_banner = true;
    }
    const grant = token?.grantId ? await provider.Grant.find(token.grantId) : undefined;
    const scopes = new Set([...(grant?.getOIDCScope().split(' ') ?? []), ...String(body.scope ?? '').split(' ')].filter(Boolean));
    body.scope = [...scopes].join(' ');
  });

  return provider;
}

/** The authorization's only interaction: the launch handle names the user and context; nothing is asked. */
async function interaction(provider: Provider, fhirBase: string, req: Request, res: Response): Promise<void> {
  try {
    const details = await provider.interactionDetails(req, res);
    const params = details.params as Record<string, string | undefined>;
    const fail = (error: string, description: string) =>
      provider.interactionFinished(req, res, { error, error_description: description }, { mergeWithLastSubmission: false });
    if (params.aud && params.aud.replace(/\/+$/, '') !== fhirBase)
      return void (await fail('invalid_request', `aud must be this server's FHIR base URL, ${fhirBase}`));
    if (!params.launch)
      return void (await fail('invalid_request', 'Only EHR launch is supported: open the app from the platform (launch is required)'));
    let claims;
    try {
      claims = await verifyToken(params.launch, 'internal');
    } catch {
      return void (await fail('access_denied', 'The launch is unknown or has expired'));
    }
    if (
      claims.purpose !== SMART_LAUNCH_PURPOSE ||
      claims.client_id !== params.client_id ||
      !claims.jti ||
      !claims.sid ||
      typeof claims.patient !== 'string'
    ) {
      return void (await fail('access_denied', 'The launch was not made for this app'));
    }
    const first = await appRedis().set(
      redisKey('smart', 'launch-used', claims.jti),
      '1',
      'EX',
      config().SMART_LAUNCH_TTL_SECONDS + 60,
      'NX',
    );
    if (first !== 'OK') return void (await fail('access_denied', 'This launch was already used'));
    const requested = String(params.scope ?? '')
      .split(' ')
      .filter(Boolean);
    const grant = new provider.Grant({ accountId: claims.sub, clientId: params.client_id! });
    grant.addOIDCScope(requested.filter((s) => OIDC_SCOPES.includes(s)).join(' '));
    const resourceScopes = requested.filter((s) => RESOURCE_SCOPES.includes(s));
    if (resourceScopes.length) grant.addResourceScope(fhirBase, resourceScopes.join(' '));
    const grantId = await grant.save();
    const context: SmartContext = {
      userId: claims.sub,
      sessionId: claims.sid,
      patient: claims.patient,
      ...(typeof claims.encounter === 'string' ? { encounter: claims.encounter } : {}),
      launchId: claims.jti,
    };
    await appRedis().set(contextKey(grantId), JSON.stringify(context), 'EX', REFRESH_TTL);
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: claims.sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'SMART authorization interaction failed');
    if (!res.headersSent)
      res
        .status(400)
        .json({ error: 'invalid_request', error_description: 'The authorization request expired or is unknown; start the launch again' });
  }
}
