import { createHash, randomUUID } from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { Kind, parse, validate, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type Provider from 'oidc-provider';
import type { RequestContext } from '../../../../shared/context';
import { AppError, ERROR_STATUS, isErrorCode, type ErrorCode } from '../../../../shared/errors';
import { logger } from '../../../../shared/logger';
import type { OperationExecutor, PreparedOperation } from '../../../../shared/prepared-operation';
import { consume } from '../../../../shared/rate-limit';
import { signToken } from '../../../../shared/tokens';
import type { Authenticator, Viewer } from '../../../../shared/viewer';
import { FHIR_JSON, FHIR_VERSION, fhirBaseUrl, type FhirResource } from '../fhir';
import { FHIR_TYPES, grantContext, smartConfiguration, smartEndpoints } from './smart-server';

/**
 * The read-only FHIR R4 API at `/fhir/R4`: `metadata`, and read and search of Patient, Observation (vital signs and
 * laboratory), AllergyIntolerance, MedicationRequest and Immunization. Every read runs as a GraphQL operation through
 * the gateway, so the subgraph applies the same access rules and audit as REST. A caller is a SMART app with an
 * access token from `/oauth2` (acting for the user who launched it, within its scopes and patient context), or a
 * platform user with their own bearer token. Answers are FHIR JSON (`application/fhir+json`); errors are
 * OperationOutcomes. The SPEC's envelope does not apply: FHIR clients expect the resources themselves.
 */

type FhirType = (typeof FHIR_TYPES)[number];

export interface FhirCaller {
  viewer: Viewer;
  /** A SMART app with patient-level scopes sees this patient's data only. */
  compartment: string | null;
  /** SMART scopes; null for a platform user's own token (their access rules apply in full). */
  scopes: string[] | null;
}

function prepare(schema: GraphQLSchema, name: string, source: string): PreparedOperation {
  const document = parse(source);
  const problems = validate(schema, document);
  if (problems.length) throw new Error(`FHIR API operation ${name}: ${problems.map((p) => p.message).join('; ')}`);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  return { name, source, document, operation, queryHash: createHash('sha256').update(source).digest('hex') };
}

class FhirError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const FHIR_CODE: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'invalid',
  UNAUTHORIZED: 'login',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'not-found',
  METHOD_NOT_ALLOWED: 'not-supported',
  RATE_LIMITED: 'throttled',
  SERVICE_UNAVAILABLE: 'transient',
};

function outcome(res: Response, status: number, code: string, message: string): void {
  if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="fhir"');
  res
    .status(status)
    .type(FHIR_JSON)
    .send(JSON.stringify({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, diagnostics: message }] }));
}

function fromGraphQL(e: GraphQLFormattedError): FhirError {
  const code = e.extensions?.code;
  const known: ErrorCode = isErrorCode(code) ? code : 'INTERNAL_ERROR';
  return new FhirError(
    ERROR_STATUS[known],
    FHIR_CODE[known] ?? 'exception',
    known === 'INTERNAL_ERROR' ? 'Internal server error' : e.message,
  );
}

/** Whether the SMART scopes allow `interaction` (read or search) on `type`. */
export function scopeAllows(scopes: string[], type: FhirType, interaction: 'read' | 'search'): boolean {
  return scopes.some((s) => {
    const m = /^(patient|user)\/([A-Za-z*]+)\.(read|[cruds]+)$/.exec(s);
    if (!m || (m[2] !== '*' && m[2] !== type)) return false;
    return m[3] === 'read' || m[3].includes(interaction === 'read' ? 'r' : 's');
  });
}

export function capabilityStatement(): FhirResource {
  const e = smartEndpoints();
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: '2026-11-24',
    kind: 'instance',
    software: { name: 'Clinical Care Platform' },
    implementation: { description: 'Read-only FHIR R4 API of the clinical care platform', url: fhirBaseUrl() },
    fhirVersion: FHIR_VERSION,
    format: ['json'],
    rest: [
      {
        mode: 'server',
        security: {
          extension: [
            {
              url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
              extension: [
                { url: 'authorize', valueUri: e.authorization_endpoint },
                { url: 'token', valueUri: e.token_endpoint },
                { url: 'revoke', valueUri: e.revocation_endpoint },
              ],
            },
          ],
          service: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'SMART-on-FHIR' }] }],
        },
        resource: FHIR_TYPES.map((type) => ({
          type,
          interaction: [{ code: 'read' }, { code: 'search-type' }],
          searchParam: [
            ...(type === 'Patient' ? [{ name: '_id', type: 'token' }] : [{ name: 'patient', type: 'reference' }]),
            ...(type === 'Observation' ? [{ name: 'category', type: 'token' }] : []),
            { name: '_count', type: 'number' },
          ],
        })),
      },
    ],
  };
}

export function fhirApi(deps: {
  gateway: OperationExecutor & { schema: GraphQLSchema };
  identity: Authenticator;
  provider: () => Promise<Provider>;
}): Router {
  const read = prepare(
    deps.gateway.schema,
    'FhirRead',
    'query FhirRead($resourceType: FhirResourceType!, $id: ID!, $compartment: ID) { fhirRead(resourceType: $resourceType, id: $id, compartment: $compartment) }',
  );
  const search = prepare(
    deps.gateway.schema,
    'FhirSearch',
    'query FhirSearch($resourceType: FhirResourceType!, $patient: ID!, $category: String, $count: Int, $compartment: ID) { fhirSearch(resourceType: $resourceType, patient: $patient, category: $category, count: $count, compartment: $compartment) }',
  );
  // A SMART token acts as the launching user's platform session: a short platform token minted for that session, so
  // the session's end (logout, suspension) ends the app's access too. Kept for under a minute per session.
  const minted = new Map<string, { token: string; until: number }>();
  const sessionToken = async (userId: string, sessionId: string) => {
    const hit = minted.get(sessionId);
    if (hit && hit.until > Date.now()) return hit.token;
    const token = await signToken({ sub: userId, typ: 'access', sid: sessionId }, 60);
    if (minted.size > 10_000) minted.clear();
    minted.set(sessionId, { token, until: Date.now() + 45_000 });
    return token;
  };

  async function caller(req: Request): Promise<FhirCaller> {
    const header = req.headers.authorization;
    const [scheme, token, extra] = (header ?? '').trim().split(/\s+/);
    if (!header || scheme?.toLowerCase() !== 'bearer' || !token || extra !== undefined)
      throw new FhirError(401, 'login', 'A bearer access token is required');
    if (token.startsWith('v4.public.')) {
      try {
        return { viewer: await deps.identity.viewerFromAccessToken(token), compartment: null, scopes: null };
      } catch (err) {
        throw new FhirError(401, 'login', (err as Error).message);
      }
    }
    const access = await (await deps.provider()).AccessToken.find(token);
    if (!access || access.isExpired) throw new FhirError(401, 'login', 'The access token is unknown or has expired');
    const audience = ([] as string[]).concat((access.aud as string | string[] | undefined) ?? []);
    if (!audience.includes(fhirBaseUrl())) throw new FhirError(401, 'login', 'The access token is not for this FHIR server');
    const context = await grantContext(access.grantId);
    if (!context) throw new FhirError(401, 'login', 'The access token carries no launch context');
    let viewer: Viewer;
    try {
      viewer = await deps.identity.viewerFromAccessToken(await sessionToken(context.userId, context.sessionId));
    } catch (err) {
      throw new FhirError(401, 'login', `The launching session has ended: ${(err as Error).message}`);
    }
    const scopes = String(access.scope ?? '')
      .split(' ')
      .filter(Boolean);
    const userLevel = scopes.some((s) => s.startsWith('user/'));
    return { viewer, compartment: userLevel ? null : context.patient, scopes };
  }

  const r = Router();
  const base = '/fhir/R4';
  r.get(`${base}/metadata`, (_req, res) => void res.type(FHIR_JSON).send(JSON.stringify(capabilityStatement())));
  r.get(`${base}/.well-known/smart-configuration`, (_req, res) => void res.json(smartConfiguration()));

  const handle = (interaction: 'read' | 'search') => async (req: Request, res: Response) => {
    try {
      const type = req.params.type as FhirType;
      if (!(FHIR_TYPES as readonly string[]).includes(type))
        throw new FhirError(404, 'not-supported', `Resource type ${type} is not served here`);
      const who = await caller(req);
      await consume('general', `user:${who.viewer.userId}`).catch((err: AppError) => {
        throw new FhirError(429, 'throttled', err.message);
      });
      if (who.scopes && !scopeAllows(who.scopes, type, interaction)) {
        throw new FhirError(403, 'forbidden', `The access token's scopes do not allow ${interaction} of ${type}`);
      }
      const context: RequestContext = {
        viewer: who.viewer,
        requestId: req.id ?? randomUUID(),
        ip: req.ip,
        userAgent: req.headers['user-agent'],
      };
      let result;
      if (interaction === 'read') {
        result = await deps.gateway.execute(read, { resourceType: type, id: req.params.id, compartment: who.compartment }, context);
      } else {
        const q = req.query as Record<string, unknown>;
        const one = (name: string) => {
          const v = q[name];
          if (v === undefined) return undefined;
          if (typeof v !== 'string') throw new FhirError(400, 'invalid', `${name} must be given once`);
          return v;
        };
        let patient = type === 'Patient' ? one('_id') : (one('patient') ?? one('subject'));
        patient = patient?.replace(/^Patient\//, '') ?? who.compartment ?? undefined;
        if (!patient) throw new FhirError(400, 'required', type === 'Patient' ? 'Search Patient by _id' : `Search ${type} by patient`);
        const countRaw = one('_count');
        const count = countRaw === undefined ? undefined : Number(countRaw);
        if (count !== undefined && (!Number.isInteger(count) || count < 1 || count > 100))
          throw new FhirError(400, 'invalid', '_count must be an integer from 1 to 100');
        const category = one('category')?.split('|').pop();
        result = await deps.gateway.execute(
          search,
          { resourceType: type, patient, category, count, compartment: who.compartment },
          context,
        );
      }
      if (result.errors?.length) throw fromGraphQL(result.errors[0]);
      const data = result.data as Record<string, FhirResource | null> | null | undefined;
      const resource = interaction === 'read' ? data?.fhirRead : data?.fhirSearch;
      if (!resource) throw new FhirError(404, 'not-found', `${type} not found`);
      res.status(200).type(FHIR_JSON).send(JSON.stringify(resource));
    } catch (err) {
      if (err instanceof FhirError) return outcome(res, err.status, err.code, err.message);
      logger.error({ err }, 'FHIR API error');
      outcome(res, 500, 'exception', 'Internal server error');
    }
  };
  r.get(`${base}/:type`, handle('search'));
  r.get(`${base}/:type/:id`, handle('read'));
  r.all(`${base}/*rest`, (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET') return next();
    res.setHeader('Allow', 'GET');
    outcome(res, 405, 'not-supported', 'This FHIR API is read-only');
  });
  r.get(`${base}/*rest`, (_req, res) => outcome(res, 404, 'not-found', 'No such FHIR endpoint'));
  return r;
}
