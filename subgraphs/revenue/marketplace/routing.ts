/**
 * Great-circle distances for emergency routing: the haversine formula on a sphere of the Earth's mean radius
 * (6371.0088 km, IUGG). Accurate to about 0.5% against the ellipsoid, which is plenty for "nearest first".
 */
export const EARTH_RADIUS_KM = 6371.0088;

export interface Place {
  latitude: number;
  longitude: number;
}

const rad = (deg: number) => (deg * Math.PI) / 180;

/** The great-circle distance between two places in kilometres. */
export function distanceKm(a: Place, b: Place): number {
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The candidates with a place, nearest to `from` first (ties by id, so the order is stable), within `radiusKm` when
 * given, at most `limit`; each with its distance rounded to metres.
 */
export function nearestFirst<T extends { id: string; latitude: number | null; longitude: number | null }>(
  from: Place,
  candidates: readonly T[],
  opts: { radiusKm?: number | null; limit: number },
): (T & { distanceKm: number })[] {
  return candidates
    .filter((c): c is T & Place => c.latitude !== null && c.longitude !== null)
    .map((c) => ({ ...c, distanceKm: Math.round(distanceKm(from, c) * 1000) / 1000 }))
    .filter((c) => opts.radiusKm === undefined || opts.radiusKm === null || c.distanceKm <= opts.radiusKm)
    .sort((a, b) => a.distanceKm - b.distanceKm || a.id.localeCompare(b.id))
    .slice(0, opts.limit);
}
