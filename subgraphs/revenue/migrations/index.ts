import type { Constructor } from '@mikro-orm/core';
import type { Migration } from '@mikro-orm/migrations';
import { Migration20261122005630 } from './Migration20261122005630';
import { Migration20261121231958 } from './Migration20261121231958';

/** Applied in this order; `npm run migration:create -- revenue` appends new ones. */
export const migrations: Constructor<Migration>[] = [
  Migration20261121231958,
  Migration20261122005630,
];
