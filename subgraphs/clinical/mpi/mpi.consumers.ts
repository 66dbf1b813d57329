import { config } from '../../../shared/config';
import { PermanentEventError, type ConsumerDefinition } from '../../../shared/events';
import { isUuid } from '../../../shared/model';
import type { ScheduledJob } from '../../../shared/module';
import { PATIENT_ERASED } from '../data-subject-requests/dsr.events';
import { Patient } from '../patients/patient.entity';
import { PATIENT_CREATED, PATIENT_UPDATED } from '../patients/patient.events';
import { blockingKeys } from './matcher';
import { indexPatients, patientMatchRecord, removeFromIndex, staleIndex } from './mpi-index';
import { runMatcher } from './mpi.service';

/** Fields of a patient the matcher compares: an update touching none of them is re-indexed without matching. */
const MATCHED_FIELDS = new Set(['firstName', 'lastName', 'dateOfBirth', 'gender', 'phone', 'nationalId', 'nationalIdCountry']);

/**
 * svc.patient.created / svc.patient.updated: the patient's index entry is written and the matcher runs (links above
 * the auto-link threshold, candidates for review between the thresholds). svc.patient.erased: the entry leaves the
 * index. Each event is applied once; the index write is idempotent anyway.
 */
export const mpiMatcher: ConsumerDefinition = {
  name: 'mpi-matcher',
  description:
    'indexes a registered or updated patient in the master patient index and links or proposes matches; drops erased patients from the index',
  topics: [PATIENT_CREATED.name, PATIENT_UPDATED.name, PATIENT_ERASED.name],
  async handle(event, { em, viewer, requestId }) {
    const p = event.payload as { patient_id?: string; fields?: string[] };
    if (!isUuid(p.patient_id)) throw new PermanentEventError(`${event.topic} carries no patient_id`);
    const patient = await em.findOne(Patient, { id: p.patient_id });
    if (event.topic === PATIENT_ERASED.name || !patient || patient.erasedAt) {
      await removeFromIndex(em, [p.patient_id]);
      return;
    }
    // Two registrations of the same person handled at once would each miss the other's uncommitted entry. Every run
    // takes a transaction lock per blocking key it searches (in one order, so runs never deadlock): records that can
    // meet share a key, so their runs take turns.
    for (const key of [...new Set(blockingKeys(patientMatchRecord(patient), true))].sort()) {
      await em.getConnection().execute('select pg_advisory_xact_lock(hashtext(?))', [`mpi:${key}`], 'all', em.getTransactionContext());
    }
    const records = await indexPatients(em, [patient]);
    if (event.topic === PATIENT_UPDATED.name && !(p.fields ?? []).some((f) => MATCHED_FIELDS.has(f))) return;
    await runMatcher({ em, viewer, requestId }, patient, records.get(patient.id)!);
  },
};

const SWEEP_BATCH = 5000;
/** Once caught up, the sweep (a full anti-join of patients and index) looks again after this long at most often. */
const QUIET_MS = 60_000;
let quietUntil = 0;

/**
 * Patients the worker has not indexed (registered before the index existed, or while it was behind) or changed
 * since, and erased patients still indexed: caught up in batches. The sweep indexes; it does not pair them.
 */
export const mpiIndexSweep: ScheduledJob = {
  name: 'mpi-index-sweep',
  description: 'indexes patients missing from the master patient index (or changed since) and drops erased ones',
  get everyMs() {
    return config().MPI_INDEX_SWEEP_MS;
  },
  async run({ em, now }) {
    if (now.getTime() < quietUntil) return;
    const found = await em.transactional(async (tx) => {
      const { toIndex, toRemove } = await staleIndex(tx, SWEEP_BATCH);
      await removeFromIndex(tx, toRemove);
      if (toIndex.length) await indexPatients(tx, await tx.find(Patient, { id: { $in: toIndex } }));
      return toIndex.length + toRemove.length;
    });
    // The worker keeps the index current; the sweep only catches up. When it found nothing, it rests a while.
    quietUntil = found ? 0 : now.getTime() + Math.max(QUIET_MS, config().MPI_INDEX_SWEEP_MS);
  },
};
