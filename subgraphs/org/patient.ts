import { Directive, Field, ID, ObjectType } from 'type-graphql';

/**
 * The patient as the org subgraph sees it: an entity of the clinical subgraph, which this subgraph extends with what
 * it keeps about the patient (appointments, admissions). Modules of this subgraph return `{ id }` for a patient; the
 * gateway fetches the rest from the clinical subgraph, under its rules.
 */
@ObjectType('Patient')
@Directive('@key(fields: "id")')
export class OrgPatient {
  @Field(() => ID)
  id!: string;
}
