import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

const pair = z.object({ link_id: z.uuid(), patient_id: z.uuid(), linked_patient_id: z.uuid() });

export const PATIENTS_LINKED = defineTopic(
  'svc.mpi.patients_linked',
  'two patient records are linked as the same person (by the matcher or a person)',
  pair,
);
export const PATIENTS_UNLINKED = defineTopic('svc.mpi.patients_unlinked', 'a link between two patient records is undone', pair);
