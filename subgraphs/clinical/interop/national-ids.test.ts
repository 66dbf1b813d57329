import { checkNationalId, luhnValid, NATIONAL_ID_FORMATS, HIE_COUNTRIES } from './national-ids';

describe('national id formats', () => {
  it('accepts every example and checks South African ids with Luhn', () => {
    for (const c of HIE_COUNTRIES) expect({ c, ok: checkNationalId(c, NATIONAL_ID_FORMATS[c].example).ok }).toEqual({ c, ok: true });
    expect(luhnValid('8001015009087')).toBe(true);
    expect(luhnValid('8001015009088')).toBe(false);
    expect(checkNationalId('ZA', '8001015009088')).toMatchObject({ ok: false, reason: expect.stringMatching(/Luhn/) });
    expect(checkNationalId('ZA', '8002305009087')).toMatchObject({ ok: false, reason: expect.stringMatching(/birth date/) });
    expect(checkNationalId('ZA', '8001015009387')).toMatchObject({ ok: false });
  });

  it('cleans spaces and letter case', () => {
    expect(checkNationalId('GH', 'gha-123456789-0')).toEqual({ ok: true, id: 'GHA-123456789-0' });
    expect(checkNationalId('NG', '123 4567 8901')).toEqual({ ok: true, id: '12345678901' });
  });
});
