import type { ClassType } from 'type-graphql';
import { idLinkFields } from '../../../shared/refs';
import type { SubgraphContext } from '../../../shared/subgraph';
import { Organization } from './organization.entity';
import { OrganizationService } from './organization.service';

/**
 * A resolver giving `entity` an `organization` field beside its `organizationId`, inside the subgraph that owns
 * organizations: batched, under the rule of `organization(id)`, null when the caller may not see it.
 */
export function organizationField<T extends { organizationId?: string | null }>(entity: ClassType<T>): ClassType {
  const service = new OrganizationService();
  return idLinkFields<T>(entity, 'OrganizationLink', {
    organization: {
      id: 'organizationId' as keyof T & string,
      type: Organization,
      description: 'The organization it belongs to; null when the caller may not see it',
      resolve: (id: string, ctx: SubgraphContext) => service.visible(ctx, id),
    },
  });
}
