import { clock } from '../../../shared/clock';
import { PermanentEventError, type ConsumerDefinition } from '../../../shared/events';
import { isUuid } from '../../../shared/model';
import type { ScheduledJob } from '../../../shared/module';
import { CASE_REPORTED, type CaseReportedPayload } from '../public-health/case.events';
import { addDays } from '../public-health/periods';
import { recompute, SCHEDULED_WINDOW_DAYS } from './surveillance.recompute';

const today = () => clock.now().toISOString().slice(0, 10);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A case report changes one organization's counts on its onset day: that day (encounters included) is recomputed,
 * with the alerts of the days after it that read it, as soon as the event arrives. Recomputing is idempotent, so a
 * redelivered event changes nothing.
 */
export const surveillanceRecompute: ConsumerDefinition = {
  name: 'surveillance-recompute',
  description: "recomputes the organization's daily syndrome counts of the onset day and the EARS alerts that read them",
  topics: [CASE_REPORTED.name],
  async handle(event, { em }) {
    const p = event.payload as Partial<CaseReportedPayload>;
    if (!isUuid(p.organization_id) || !p.onset_date || !DAY.test(p.onset_date)) {
      throw new PermanentEventError('case_reported carries no organization_id or onset_date');
    }
    await recompute(em, { organizationId: p.organization_id, from: p.onset_date, to: p.onset_date }, today());
  },
};

/**
 * The last two weeks of every organization, every hour: encounters (clinical records, which emit no event this
 * consumer follows) are counted, days roll over, and anything missed is caught up.
 */
export const surveillanceSchedule: ScheduledJob = {
  name: 'surveillance-catch-up',
  description: "recomputes every organization's daily syndrome counts and EARS alerts of the last 14 days",
  everyMs: 60 * 60_000,
  async run({ em, now }) {
    const to = now.toISOString().slice(0, 10);
    await recompute(em, { from: addDays(to, -(SCHEDULED_WINDOW_DAYS - 1)), to }, to);
  },
};
