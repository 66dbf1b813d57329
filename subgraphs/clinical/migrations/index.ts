import type { Constructor } from '@mikro-orm/core';
import type { Migration } from '@mikro-orm/migrations';
import { Migration20261122022126 } from './Migration20261122022126';
import { Migration20261122015942 } from './Migration20261122015942';
import { Migration20261122013530 } from './Migration20261122013530';
import { Migration20261122013437 } from './Migration20261122013437';
import { Migration20261122013416 } from './Migration20261122013416';
import { Migration20261122013328 } from './Migration20261122013328';
import { Migration20261122013127 } from './Migration20261122013127';
import { Migration20261122010952 } from './Migration20261122010952';
import { Migration20261122005628 } from './Migration20261122005628';
import { Migration20261121231958 } from './Migration20261121231958';

/** Applied in this order; `npm run migration:create -- clinical` appends new ones. */
export const migrations: Constructor<Migration>[] = [
  Migration20261121231958,
  Migration20261122005628,
  Migration20261122010952,
  Migration20261122013127,
  Migration20261122013328,
  Migration20261122013416,
  Migration20261122013437,
  Migration20261122013530,
  Migration20261122015942,
  Migration20261122022126,
];
