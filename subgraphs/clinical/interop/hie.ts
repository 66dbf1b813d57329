import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { clock } from '../../../shared/clock';
import { config } from '../../../shared/config';
import { errors } from '../../../shared/errors';
import fixtures from './hie-sandbox-fixtures.json';
import { FHIR_JSON, fhirIssues, IDENTIFIER_SYSTEMS, type FhirResource } from './fhir';
import type { HieCountry } from './national-ids';

/**
 * Health information exchanges, one adapter interface: `search(nationalId)` answers the exchange's Patients. The
 * `sandbox` adapter answers from fixtures; the `fhir` adapter asks a FHIR R4 endpoint (`GET [base]/Patient?identifier=`)
 * with the exchange's bearer token, a timeout, no redirects and a size limit. A caller-named endpoint is used only
 * when it is on the configured allowlist, and its address is checked before connecting (and the connection pinned to
 * the checked address), so no request ever leaves for an address the operator did not allow.
 */

export interface HieSearch {
  /** Who answered, as `meta.source` of each Patient: the exchange's FHIR base, or the sandbox's URN. */
  source: string;
  patients: FhirResource[];
}

export interface HieAdapter {
  /** Stable name of the exchange (breaker and audit key). */
  readonly name: string;
  search(country: HieCountry, nationalId: string): Promise<HieSearch>;
}

type Fixture = {
  national_id: string;
  given: string[];
  family: string;
  gender: string;
  birthDate: string;
  phone?: string;
  managingOrganization?: string;
};

/** Answers from hie-sandbox-fixtures.json, as an exchange would: Patients whose national id is the one asked. */
export class SandboxHie implements HieAdapter {
  readonly name: string;
  constructor(private readonly country: HieCountry) {
    this.name = `sandbox:${country}`;
  }

  async search(country: HieCountry, nationalId: string): Promise<HieSearch> {
    const source = `urn:ccp:hie-sandbox:${country}`;
    const rows = ((fixtures as unknown as Record<string, Fixture[]>)[this.country] ?? []).filter(
      (f) => f.national_id.replace(/[\s-]/g, '').toUpperCase() === nationalId.replace(/[\s-]/g, '').toUpperCase(),
    );
    const patients = rows.map((f, i) => ({
      resourceType: 'Patient',
      id: `${country.toLowerCase()}-${f.national_id.replace(/[^A-Za-z0-9]/g, '').toLowerCase()}-${i + 1}`,
      identifier: [
        {
          use: 'official',
          type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'NI' }] },
          system: IDENTIFIER_SYSTEMS.nationalId(country),
          value: f.national_id,
        },
      ],
      name: [{ family: f.family, given: f.given }],
      gender: f.gender,
      birthDate: f.birthDate,
      ...(f.phone ? { telecom: [{ system: 'phone', value: f.phone }] } : {}),
      ...(f.managingOrganization ? { managingOrganization: { display: f.managingOrganization } } : {}),
    }));
    return { source, patients };
  }
}

const MAX_BYTES = 2 * 1024 * 1024;

/** Addresses a request must never reach unless the operator named that very address: RFC 1918, loopback, ... */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) {
    // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) addresses are judged by their IPv4 address. (Their
    // /96 ranges are not in the list: a BlockList checks IPv4 addresses against IPv4-mapped rules too.)
    const embedded = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (embedded) return PRIVATE.check(embedded[1], 'ipv4');
    const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
    if (hex) {
      const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
      return PRIVATE.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
    }
    return PRIVATE.check(address, 'ipv6');
  }
  return true;
}

const defaultPort = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
const bareHost = (h: string) => h.replace(/^\[|\]$/g, '');

/**
 * The allowlist entry a caller-named endpoint falls under (same scheme, host and port, path below the entry's), or a
 * VALIDATION_ERROR on `hie_endpoint`. Nothing is resolved or connected here.
 */
export function allowedEndpoint(raw: string, allowlist: readonly string[]): { url: URL; entry: URL } {
  const refuse = (why: string) => errors.invalidField('hieEndpoint', why);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('must be an absolute URL of an allowed health information exchange');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('must be an http(s) URL');
  if (url.username || url.password) throw refuse('must not carry credentials');
  if (url.search || url.hash) throw refuse('must be a FHIR base URL, without query or fragment');
  for (const item of allowlist) {
    let entry: URL;
    try {
      entry = new URL(item);
    } catch {
      continue;
    }
    const base = entry.pathname.replace(/\/+$/, '');
    const path = url.pathname.replace(/\/+$/, '');
    if (
      entry.protocol === url.protocol &&
      entry.hostname === url.hostname &&
      defaultPort(entry) === defaultPort(url) &&
      (path === base || path.startsWith(`${base}/`))
    ) {
      return { url, entry };
    }
  }
  throw refuse('is not on the allowlist of health information exchanges');
}

/**
 * A DNS lookup that answers only addresses the request may reach: the name is resolved once, every answer checked,
 * and the connection made to the checked address (a second resolution could answer something else). A private,
 * loopback or link-local address passes only when `trusted` names it (the operator configured it literally).
 */
export async function guardedAddress(hostname: string, trusted: ReadonlySet<string>): Promise<{ address: string; family: number }> {
  const host = bareHost(hostname);
  const answers = isIP(host) ? [{ address: host, family: isIP(host) }] : await dnsLookup(host, { all: true, verbatim: true });
  if (!answers.length) throw new Error(`${host} does not resolve`);
  for (const a of answers) {
    if (isPrivateAddress(a.address) && !trusted.has(a.address)) {
      throw errors.invalidField('hieEndpoint', 'resolves to a private, loopback or link-local address');
    }
  }
  return answers[0];
}

class UpstreamError extends Error {}

/** GET a FHIR JSON document: pinned address, timeout, no redirects, at most MAX_BYTES. */
function getFhirJson(
  url: URL,
  pinned: { address: string; family: number },
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<unknown> {
  const lookup: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      { method: 'GET', headers, lookup, timeout: timeoutMs, servername: isIP(bareHost(url.hostname)) ? undefined : url.hostname },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          return reject(new UpstreamError(`answered a redirect (${status}), which is not followed`));
        }
        if (status !== 200) {
          res.resume();
          return reject(new UpstreamError(`answered ${status}`));
        }
        let size = 0;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BYTES) {
            req.destroy(new UpstreamError(`answered more than ${MAX_BYTES} bytes`));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            reject(new UpstreamError('answered something that is not JSON'));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new UpstreamError(`did not answer within ${timeoutMs} ms`)));
    req.on('error', (err) =>
      reject(
        err instanceof UpstreamError
          ? err
          : new UpstreamError(`could not be reached (${(err as NodeJS.ErrnoException).code ?? err.message})`),
      ),
    );
    req.end();
  });
}

/** A FHIR R4 exchange: `GET [base]/Patient?identifier=<national id>`, a searchset Bundle expected back. */
export class FhirHie implements HieAdapter {
  readonly name: string;
  constructor(
    private readonly base: URL,
    private readonly opts: { token?: string; timeoutMs: number; trusted: ReadonlySet<string> },
  ) {
    this.name = `fhir:${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  }

  async search(_country: HieCountry, nationalId: string): Promise<HieSearch> {
    const url = new URL(`${this.base.toString().replace(/\/+$/, '')}/Patient`);
    url.searchParams.set('identifier', nationalId);
    const pinned = await guardedAddress(url.hostname, this.opts.trusted);
    const headers: Record<string, string> = { accept: FHIR_JSON, 'user-agent': 'clinical-care-platform' };
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    const body = (await getFhirJson(url, pinned, headers, this.opts.timeoutMs)) as {
      resourceType?: string;
      entry?: { resource?: FhirResource }[];
    };
    if (body?.resourceType !== 'Bundle') throw new UpstreamError('answered something that is not a FHIR Bundle');
    // The exchange is not trusted to send valid resources: only Patients that validate against R4 are passed on.
    const patients = (body.entry ?? [])
      .map((e) => e.resource)
      .filter((r): r is FhirResource => r?.resourceType === 'Patient' && fhirIssues(r).length === 0);
    return { source: `${this.base.origin}${this.base.pathname.replace(/\/+$/, '')}`, patients };
  }
}

/**
 * A circuit breaker per exchange: after `failures` failures in a row, calls fail at once for `openMs`; then one
 * trial call decides whether it closes again. In memory, per process.
 */
export class CircuitBreaker {
  private failures = 0;
  private openUntil = 0;
  private trial = false;

  constructor(private readonly limit: () => { failures: number; openMs: number }) {}

  get state(): 'closed' | 'open' | 'half_open' {
    if (this.failures < this.limit().failures) return 'closed';
    return clock.nowMs() < this.openUntil ? 'open' : 'half_open';
  }

  async run<T>(work: () => Promise<T>, isFailure: (err: unknown) => boolean): Promise<T> {
    const state = this.state;
    if (state === 'open' || (state === 'half_open' && this.trial)) throw new CircuitOpenError();
    if (state === 'half_open') this.trial = true;
    try {
      const result = await work();
      this.failures = 0;
      return result;
    } catch (err) {
      if (isFailure(err)) {
        this.failures++;
        if (this.failures >= this.limit().failures) this.openUntil = clock.nowMs() + this.limit().openMs;
      }
      throw err;
    } finally {
      if (state === 'half_open') this.trial = false;
    }
  }
}

export class CircuitOpenError extends Error {}

const breakers = new Map<string, CircuitBreaker>();

export function breakerFor(name: string): CircuitBreaker {
  let b = breakers.get(name);
  if (!b) {
    b = new CircuitBreaker(() => ({ failures: config().HIE_BREAKER_FAILURES, openMs: config().HIE_BREAKER_OPEN_MS }));
    breakers.set(name, b);
  }
  return b;
}

/** The exchange to ask: the caller's allowlisted endpoint, else the country's configured exchange, else the sandbox. */
export function exchangeFor(country: HieCountry, hieEndpoint?: string | null): HieAdapter {
  const cfg = config();
  if (hieEndpoint) {
    const { url, entry } = allowedEndpoint(hieEndpoint, cfg.HIE_ENDPOINT_ALLOWLIST);
    // An allowlist entry written as an IP address names that address on purpose, private or not.
    const literal = bareHost(entry.hostname);
    return new FhirHie(url, { timeoutMs: cfg.HIE_TIMEOUT_MS, trusted: new Set(isIP(literal) ? [literal] : []) });
  }
  const configured = cfg.HIE_EXCHANGES[country];
  if (configured?.adapter === 'fhir') {
    if (!configured.base_url) throw errors.serviceUnavailable(`The health information exchange of ${country} has no base_url configured`);
    const base = new URL(configured.base_url);
    // The operator configured this exchange: its address is trusted whatever it resolves to.
    return new FhirHie(base, {
      token: configured.token,
      timeoutMs: configured.timeout_ms ?? cfg.HIE_TIMEOUT_MS,
      trusted: new AnyAddress(),
    });
  }
  return new SandboxHie(country);
}

/** A set that holds every address (an operator-configured exchange may live on a private network). */
class AnyAddress extends Set<string> {
  override has(): boolean {
    return true;
  }
}

export { UpstreamError };
