import type { ConsumerDefinition } from '../shared/events';
import type { ScheduledJob } from '../shared/module';
import { consumerQueue, DEAD_LETTER_QUEUE, EVENTS_QUEUE, SCHEDULED_QUEUE } from '../shared/queues';

/** What the workers run, handed to them by whoever starts them (they never import a subgraph). */
export interface WorkRegistry {
  /** Each consumer with the name of the subgraph whose database holds its effects. */
  consumers: ConsumerRegistration[];
  /** Each scheduled job with the name of the subgraph whose database it works in. */
  jobs: JobRegistration[];
}

export interface ConsumerRegistration {
  subgraph: string;
  consumer: ConsumerDefinition;
}

export interface JobRegistration {
  subgraph: string;
  job: ScheduledJob;
}

/** The registry of a set of subgraph definitions (anything with a name, consumers and jobs). */
export function workRegistry(subgraphs: readonly { name: string; consumers: ConsumerDefinition[]; jobs: ScheduledJob[] }[]): WorkRegistry {
  const consumers = subgraphs.flatMap((s) => s.consumers.map((consumer) => ({ subgraph: s.name, consumer })));
  const jobs = subgraphs.flatMap((s) => s.jobs.map((job) => ({ subgraph: s.name, job })));
  for (const list of [consumers.map((c) => c.consumer.name), jobs.map((j) => j.job.name)]) {
    const twice = list.find((name, i) => list.indexOf(name) !== i);
    if (twice) throw new Error(`two consumers or jobs are named ${twice}`);
  }
  return { consumers, jobs };
}

/** Every queue the platform runs, for health checks, metrics and the dashboard. */
export function platformQueueNames(registry: WorkRegistry): string[] {
  return [EVENTS_QUEUE, ...registry.consumers.map((r) => consumerQueue(r.consumer.name)), SCHEDULED_QUEUE, DEAD_LETTER_QUEUE];
}
