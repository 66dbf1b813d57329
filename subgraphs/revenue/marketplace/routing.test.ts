import { distanceKm, nearestFirst } from './routing';

const NAIROBI = { latitude: -1.2864, longitude: 36.8172 };
const MOMBASA = { latitude: -4.0435, longitude: 39.6682 };
const KAMPALA = { latitude: 0.3476, longitude: 32.5825 };

describe('great-circle distance', () => {
  it('measures known city pairs to within a kilometre or two', () => {
    expect(distanceKm(NAIROBI, MOMBASA)).toBeCloseTo(440, -1);
    expect(distanceKm(NAIROBI, KAMPALA)).toBeCloseTo(502, -1);
    expect(distanceKm(NAIROBI, NAIROBI)).toBe(0);
  });

  it('is symmetric and crosses the antimeridian the short way', () => {
    expect(distanceKm(NAIROBI, KAMPALA)).toBeCloseTo(distanceKm(KAMPALA, NAIROBI), 9);
    expect(distanceKm({ latitude: 0, longitude: 179.5 }, { latitude: 0, longitude: -179.5 })).toBeCloseTo(111.2, 0);
  });
});

describe('nearest first', () => {
  const candidates = [
    { id: 'kampala', ...KAMPALA },
    { id: 'mombasa', ...MOMBASA },
    { id: 'nowhere', latitude: null, longitude: null },
    { id: 'nairobi-b', ...NAIROBI },
    { id: 'nairobi-a', ...NAIROBI },
  ];

  it('orders by distance (ties by id), leaves out places unknown, honours radius and limit', () => {
    expect(nearestFirst(NAIROBI, candidates, { limit: 10 }).map((c) => c.id)).toEqual(['nairobi-a', 'nairobi-b', 'mombasa', 'kampala']);
    expect(nearestFirst(NAIROBI, candidates, { limit: 10, radiusKm: 450 }).map((c) => c.id)).toEqual(['nairobi-a', 'nairobi-b', 'mombasa']);
    expect(nearestFirst(NAIROBI, candidates, { limit: 1 }).map((c) => c.id)).toEqual(['nairobi-a']);
    expect(nearestFirst(MOMBASA, candidates, { limit: 1 })[0].distanceKm).toBe(0);
  });
});
