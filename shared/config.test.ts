import { loadConfig } from './config';

describe('PUBLIC_URL', () => {
  it('defaults to localhost on PORT, so a platform moved to another port points at itself', () => {
    expect(loadConfig({}).PUBLIC_URL).toBe('http://localhost:4000');
    expect(loadConfig({ PORT: '4321' }).PUBLIC_URL).toBe('http://localhost:4321');
  });

  it('keeps the address it is given', () => {
    expect(loadConfig({ PORT: '4321', PUBLIC_URL: 'https://care.example.org' }).PUBLIC_URL).toBe('https://care.example.org');
  });
});
