import type { EntityManager } from '../../../shared/db';
import { Patient } from '../patients/patient.entity';
import { blockingKeys, toMatchRecord, type MatchRecord } from './matcher';
import { MpiBlockingKey, MpiRecord } from './mpi.entity';

/**
 * The master patient index's storage: one normalized entry per patient and its blocking keys. Written by the index
 * worker and the catch-up sweep, read by matching. A candidate search reads the keys' primary-key index and then
 * at most `max` entries by id: it never scans the patients.
 */

const schemaOf = (em: EntityManager) => em.config.get('schema') as string;

export function matchRecordOf(entry: IndexEntry): MatchRecord {
  return {
    givenName: entry.givenName,
    familyName: entry.familyName,
    birthDate: entry.birthDate,
    gender: entry.gender === 'male' || entry.gender === 'female' ? entry.gender : null,
    phone: entry.phone ?? null,
    nationalId: entry.nationalId ?? null,
    nationalIdCountry: entry.nationalIdCountry ?? null,
  };
}

export function patientMatchRecord(p: Patient): MatchRecord {
  return toMatchRecord({
    firstName: p.firstName,
    lastName: p.lastName,
    dateOfBirth: p.dateOfBirth,
    gender: p.gender,
    phone: p.phone,
    nationalId: p.nationalId,
    nationalIdCountry: p.nationalIdCountry,
  });
}

/** Writes (or rewrites) the index entries of these patients and their keys, in the caller's transaction. */
export async function indexPatients(em: EntityManager, patients: Patient[]): Promise<Map<string, MatchRecord>> {
  const out = new Map<string, MatchRecord>();
  if (!patients.length) return out;
  const now = new Date();
  const entries = patients.map((p) => {
    const r = patientMatchRecord(p);
    out.set(p.id, r);
    return {
      id: p.id,
      organizationId: p.organizationId ?? null,
      mrn: p.mrn ?? null,
      ...r,
      sourceUpdatedAt: p.updatedAt,
      indexedAt: now,
    };
  });
  const ids = patients.map((p) => p.id);
  await em.nativeDelete(MpiBlockingKey, { record: { $in: ids } });
  await em.upsertMany(MpiRecord, entries);
  const keys = entries.flatMap((e) => blockingKeys(out.get(e.id)!).map((key) => ({ key, record: e.id })));
  // One multi-row insert per chunk: thousands of keys per sweep batch.
  const schema = schemaOf(em);
  for (let i = 0; i < keys.length; i += 5000) {
    const chunk = keys.slice(i, i + 5000);
    await em.getConnection().execute(
      `insert into "${schema}"."mpi_blocking_keys" ("key", "record_id") values ${chunk.map(() => '(?, ?)').join(', ')} on conflict do nothing`,
      chunk.flatMap((k) => [k.key, k.record]),
      'run',
      em.getTransactionContext(),
    );
  }
  return out;
}

export async function removeFromIndex(em: EntityManager, patientIds: string[]): Promise<void> {
  if (!patientIds.length) return;
  await em.nativeDelete(MpiBlockingKey, { record: { $in: patientIds } });
  await em.nativeDelete(MpiRecord, { id: { $in: patientIds } });
}

/** An index entry as matching reads it: plain values, no managed entity. */
export interface IndexEntry {
  id: string;
  organizationId?: string | null;
  mrn?: string | null;
  givenName: string;
  familyName: string;
  birthDate: string;
  gender?: string | null;
  phone?: string | null;
  nationalId?: string | null;
  nationalIdCountry?: string | null;
}

/**
 * Index entries sharing at least one blocking key with `record`, those sharing most keys first, at most `max`,
 * without `excludeId` (the record itself). One statement; rows come back as plain values (hydrating thousands of
 * entities for a crowded block cost more than scoring them).
 */
export async function blockedCandidates(em: EntityManager, record: MatchRecord, max: number, excludeId?: string): Promise<IndexEntry[]> {
  const keys = blockingKeys(record, true);
  const schema = schemaOf(em);
  const rows = await em.getConnection().execute<Record<string, string | null>[]>(
    `with hits as (
       select "record_id", count(*) as shared from "${schema}"."mpi_blocking_keys" where "key" in (?)${excludeId ? ' and "record_id" <> ?' : ''}
       group by "record_id" order by shared desc, "record_id" limit ?)
     select r."id", r."organization_id", r."mrn", r."given_name", r."family_name", r."birth_date", r."gender", r."phone", r."national_id", r."national_id_country"
     from hits join "${schema}"."mpi_records" r on r."id" = hits."record_id"`,
    excludeId ? [keys, excludeId, max] : [keys, max],
    'all',
    em.getTransactionContext(),
  );
  return rows.map((r) => ({
    id: r.id!,
    organizationId: r.organization_id,
    mrn: r.mrn,
    givenName: r.given_name!,
    familyName: r.family_name!,
    birthDate: r.birth_date!,
    gender: r.gender,
    phone: r.phone,
    nationalId: r.national_id,
    nationalIdCountry: r.national_id_country,
  }));
}

/**
 * Patients never indexed, or changed since (and erased ones still indexed), at most `limit` of each. Times are
 * compared to the millisecond: the entry keeps the patient's `updated_at` as JavaScript holds it.
 */
export async function staleIndex(em: EntityManager, limit: number): Promise<{ toIndex: string[]; toRemove: string[] }> {
  const schema = schemaOf(em);
  const conn = em.getConnection();
  const toIndex = await conn.execute<{ id: string }[]>(
    `select p."id" from "${schema}"."patients" p left join "${schema}"."mpi_records" r on r."id" = p."id"
     where p."erased_at" is null and (r."id" is null or r."source_updated_at" < date_trunc('milliseconds', p."updated_at")) limit ?`,
    [limit],
  );
  const toRemove = await conn.execute<{ id: string }[]>(
    `select r."id" from "${schema}"."mpi_records" r join "${schema}"."patients" p on p."id" = r."id" where p."erased_at" is not null limit ?`,
    [limit],
  );
  return { toIndex: toIndex.map((r) => r.id), toRemove: toRemove.map((r) => r.id) };
}
