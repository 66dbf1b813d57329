import type { ConsumerDefinition } from '../shared/events';
import { consumerQueue, DEAD_LETTER_QUEUE, EVENTS_QUEUE } from '../shared/queues';
import type { SubgraphDefinition } from '../shared/subgraph';
import { SUBGRAPHS } from '../subgraphs';

export interface ConsumerRegistration {
  subgraph: SubgraphDefinition;
  consumer: ConsumerDefinition;
}

/** Every bus consumer, with the subgraph whose database holds its effects. */
export function consumerRegistrations(): ConsumerRegistration[] {
  return SUBGRAPHS.flatMap((subgraph) => (subgraph.consumers ?? []).map((consumer) => ({ subgraph, consumer })));
}

/** Every queue the platform runs, for health checks, metrics and the dashboard. */
export function platformQueueNames(): string[] {
  return [EVENTS_QUEUE, ...consumerRegistrations().map((r) => consumerQueue(r.consumer.name)), DEAD_LETTER_QUEUE];
}
