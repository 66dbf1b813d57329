import type { Constructor } from '@mikro-orm/core';
import type { Migration } from '@mikro-orm/migrations';
import { Migration20261122053155 } from './Migration20261122053155';
import { Migration20261122035627 } from './Migration20261122035627';
import { Migration20261122033124 } from './Migration20261122033124';
import { Migration20261122030757 } from './Migration20261122030757';
import { Migration20261122032245 } from './Migration20261122032245';
import { Migration20261122022210 } from './Migration20261122022210';
import { Migration20261122022310 } from './Migration20261122022310';
import { Migration20261122005627 } from './Migration20261122005627';
import { Migration20261122001247 } from './Migration20261122001247';
import { Migration20261121231957 } from './Migration20261121231957';

/** Applied in this order; `npm run migration:create -- org` appends new ones. */
export const migrations: Constructor<Migration>[] = [
  Migration20261121231957,
  Migration20261122001247,
  Migration20261122005627,
  Migration20261122022210,
  Migration20261122022310,
  Migration20261122030757,
  Migration20261122032245,
  Migration20261122033124,
  Migration20261122035627,
  Migration20261122053155,
];
