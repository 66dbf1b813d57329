import { z } from 'zod';
import { defineTopic } from '../../../shared/events';

export const STOCK_LOW = defineTopic(
  'svc.inventory.stock_low',
  "a facility's available stock of a product falls to or below its reorder level (once per fall)",
  z.object({
    inventory_item_id: z.uuid(),
    /** The facility. */
    organization_id: z.uuid(),
    product_id: z.uuid(),
    on_hand: z.number().int().min(0),
    available: z.number().int().min(0),
    reorder_level: z.number().int().min(0),
  }),
);
