import type { ScheduledJob } from '../../../shared/module';
import { draftReorders } from './purchase-order.service';

/** The reorder trigger on a schedule, for every facility, as the platform (the drafts name no author). */
export const REORDER_JOB: ScheduledJob = {
  name: 'inventory-reorder',
  description: 'Drafts purchase orders for stock at or below its reorder level, one open order per item at most',
  everyMs: 60 * 60 * 1000,
  async run({ em }) {
    await draftReorders(em, null, null);
  },
};
