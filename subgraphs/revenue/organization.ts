import { Directive, Field, ID, ObjectType } from 'type-graphql';

/**
 * The organization as the revenue subgraph sees it: an entity of the org subgraph, which this subgraph extends
 * with what it keeps about the organization's money (its subscription). Modules of this subgraph return `{ id }`
 * for an organization; the gateway fetches the rest from its owner.
 */
@ObjectType('Organization')
@Directive('@key(fields: "id")')
export class RevenueOrganization {
  @Field(() => ID)
  id!: string;

  /** The gateway hands over the key; nothing to load here. */
  static resolveReference(reference: { id: string }): { id: string } {
    return { id: reference.id };
  }
}
