import { join } from 'node:path';
import { codeFilesIn, loadByPath } from '../../shared/module';
import type { RouteTable } from '../route';

/** Files in this folder that are not a module's route table. */
const NOT_MODULES = new Set(['index', 'webhooks']);

/**
 * Every module's route table: each file here is named after the module it serves (`<module>.ts`) and found by
 * that name, so adding a module's routes touches no list.
 */
export const ROUTE_TABLES: RouteTable[] = codeFilesIn(__dirname)
  .filter((name) => !NOT_MODULES.has(name))
  .map((name) => {
    const table = loadByPath(join(__dirname, name)).default as RouteTable | undefined;
    if (!table?.routes) throw new Error(`rest-adapter/routes/${name}: the default export must be defineRoutes(...)`);
    return { ...table, module: name };
  });
