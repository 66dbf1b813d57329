import { Directive, Field, ID, ObjectType } from 'type-graphql';

/**
 * Entities owned by another subgraph, referred to by id. The gateway fetches their fields from the owner.
 * A subgraph returns `{ id }` for such a field, or null when there is no reference.
 */
@ObjectType('Organization')
@Directive('@key(fields: "id", resolvable: false)')
export class OrganizationRef {
  @Field(() => ID)
  id!: string;
}

export const ref = (id: string | null | undefined): { id: string } | null => (id ? { id } : null);

@ObjectType('Patient')
@Directive('@key(fields: "id", resolvable: false)')
export class PatientRef {
  @Field(() => ID)
  id!: string;
}
