import { clock } from '../../../shared/clock';
import { allowedEndpoint, CircuitBreaker, isPrivateAddress } from './hie';

describe('exchange endpoints', () => {
  const list = ['https://hie.example.test/fhir', 'http://10.1.2.3:8080/r4'];

  it('accepts only endpoints under an allowlist entry', () => {
    expect(allowedEndpoint('https://hie.example.test/fhir', list).url.href).toBe('https://hie.example.test/fhir');
    expect(allowedEndpoint('https://hie.example.test:443/fhir/ke', list).entry.href).toBe('https://hie.example.test/fhir');
    expect(allowedEndpoint('http://10.1.2.3:8080/r4', list).url.hostname).toBe('10.1.2.3');
    for (const bad of [
      'http://hie.example.test/fhir',
      'https://hie.example.test/fhirx',
      'https://hie.example.test:8443/fhir',
      'https://evil.test/fhir',
      'https://hie.example.test.evil.test/fhir',
      'https://x@hie.example.test/fhir',
      'https://hie.example.test/fhir?x=1',
      'http://10.1.2.3/r4',
      'ftp://hie.example.test/fhir',
      '/fhir',
    ]) {
      expect(() => allowedEndpoint(bad, list)).toThrow(
        expect.objectContaining({ extensions: expect.objectContaining({ code: 'VALIDATION_ERROR' }) }),
      );
    }
  });

  it('knows private, loopback and link-local addresses in both families', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::10.0.0.1',
    ]) {
      expect({ a, p: isPrivateAddress(a) }).toEqual({ a, p: true });
    }
    for (const a of ['8.8.8.8', '41.90.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
      expect({ a, p: isPrivateAddress(a) }).toEqual({ a, p: false });
  });
});

describe('circuit breaker', () => {
  it('opens after the failures in a row, then lets one trial through after the pause', async () => {
    let now = 0;
    const spy = jest.spyOn(clock, 'nowMs').mockImplementation(() => now);
    try {
      const b = new CircuitBreaker(() => ({ failures: 2, openMs: 1000 }));
      const fail = () =>
        b.run(
          () => Promise.reject(new Error('down')),
          () => true,
        );
      await expect(fail()).rejects.toThrow('down');
      await expect(fail()).rejects.toThrow('down');
      expect(b.state).toBe('open');
      await expect(
        b.run(
          () => Promise.resolve(1),
          () => true,
        ),
      ).rejects.toThrow();
      now = 1500;
      expect(b.state).toBe('half_open');
      await expect(
        b.run(
          () => Promise.resolve(1),
          () => true,
        ),
      ).resolves.toBe(1);
      expect(b.state).toBe('closed');
    } finally {
      spy.mockRestore();
    }
  });
});
