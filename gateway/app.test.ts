import { loggedUrl } from './app';

describe('the request log', () => {
  it.each([
    ['/api/patients/6f1c2a44-0b7e-4a3e-9a55-1c2d3e4f5a6b', '/api/patients/6f1c2a44-0b7e-4a3e-9a55-1c2d3e4f5a6b'],
    ['/api/fhir/cross-border/Patient/8001015009087?country=ZA', '/api/fhir/cross-border/Patient/[redacted]?country=[redacted]'],
    ['/api/organizations/x/patients/search?mrn=MRN-000001&limit=5', '/api/organizations/x/patients/search?mrn=[redacted]&limit=[redacted]'],
    ['/api/doctors/search?name=Amina%20Odhiambo', '/api/doctors/search?name=[redacted]'],
    ['/admin/queues?token=v4.public.abc', '/admin/queues?token=[redacted]'],
    ['/api/auth/referral/someone@example.test', '/api/auth/referral/[redacted]'],
  ])('logs %s as %s', (url, logged) => {
    expect(loggedUrl(url)).toBe(logged);
  });
});
