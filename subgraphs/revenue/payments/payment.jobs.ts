import type { ScheduledJob } from '../../../shared/module';
import { checkPendingPayments } from './mobile-money.service';

export const mobileMoneyStatusJob: ScheduledJob = {
  name: 'mobile-money-status',
  description: "asks providers about mobile money payments pending too long; settles them, or times them out past the provider's expiry",
  everyMs: 15_000,
  async run({ em, now }) {
    await checkPendingPayments(em, now);
  },
};
