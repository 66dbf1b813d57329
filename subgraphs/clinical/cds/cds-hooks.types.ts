import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType, ObjectType, registerEnumType } from 'type-graphql';

/**
 * The JSON shapes of CDS Hooks 2.0 (https://cds-hooks.org/specification/current/), field for field. The REST routes
 * answer them bare (no envelope), as CDS clients expect.
 */

export enum CdsIndicator {
  info = 'info',
  warning = 'warning',
  critical = 'critical',
}
registerEnumType(CdsIndicator, { name: 'CdsIndicator', description: 'Urgency of a CDS card: info, warning, critical' });

export enum CdsLinkType {
  absolute = 'absolute',
  smart = 'smart',
}
registerEnumType(CdsLinkType, {
  name: 'CdsLinkType',
  description: 'A CDS Hooks link: absolute (a page to open) or smart (a SMART app to launch)',
});

/** What a suggestion does to a resource (CDS Hooks Action.type). */
export enum CdsActionType {
  create = 'create',
  update = 'update',
  delete = 'delete',
}

/**
 * A CDS Hooks Action: `type` (create, update, delete), `description`, and `resource` (to create or update) or
 * `resourceId` (a relative reference, to delete). A JSON object in the graph, so a card stays within the depth
 * limit of the operations the REST adapter serves.
 */
export interface CdsAction {
  type: CdsActionType;
  description: string;
  resource?: Record<string, unknown>;
  resourceId?: string;
}

@ObjectType({ description: 'A CDS service offered by the platform (CDS Hooks discovery)' })
export class CdsService {
  @Field({ description: 'The hook it answers: patient-view, order-select, order-sign' })
  hook!: string;

  @Field({ description: 'Its id, the last segment of its URL' })
  id!: string;

  @Field({ description: 'Its name for people' })
  title!: string;

  @Field({ description: 'What it checks' })
  description!: string;

  @Field(() => GraphQLJSONObject, { description: 'Prefetch templates: key -> FHIR query' })
  prefetch!: Record<string, string>;

  @Field({ nullable: true, description: 'What a client must do to use it' })
  usageRequirements?: string;
}

@ObjectType({ description: 'CDS Hooks discovery: the services offered' })
export class CdsServiceDiscovery {
  @Field(() => [CdsService], { description: 'Every CDS service of the platform' })
  services!: CdsService[];
}

@ObjectType({ description: 'A code (CDS Hooks Coding)' })
export class CdsCoding {
  @Field({ nullable: true, description: 'The code system' })
  system?: string;

  @Field({ description: 'LOINC code' })
  code!: string;

  @Field({ nullable: true, description: 'The code for people' })
  display?: string;
}

@ObjectType({ description: 'Where a card comes from' })
export class CdsSource {
  @Field({ description: 'Short, human-readable label of the source' })
  label!: string;

  @Field({ nullable: true, description: 'An absolute URL' })
  url?: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'A Coding (code, system, display) naming the topic, for analytics' })
  topic?: { code: string; system?: string; display?: string };
}

@ObjectType({ description: 'A suggested set of changes' })
export class CdsSuggestion {
  @Field({ description: 'Text for people' })
  label!: string;

  @Field({ nullable: true, description: 'Unique id, for feedback' })
  uuid?: string;

  @Field({ nullable: true, description: 'The suggestion the service recommends' })
  isRecommended?: boolean;

  @Field(() => [GraphQLJSONObject], {
    nullable: true,
    description: 'CDS Hooks actions: type (create, update, delete), description, resource or resourceId',
  })
  actions?: CdsAction[];
}

@ObjectType({ description: 'A link to more information or an app' })
export class CdsLink {
  @Field({ description: 'Text for people' })
  label!: string;

  @Field({ description: 'An absolute URL' })
  url!: string;

  @Field(() => CdsLinkType)
  type!: `${CdsLinkType}`;

  @Field({ nullable: true, description: 'Context passed to a SMART app' })
  appContext?: string;
}

@ObjectType({ description: 'A CDS Hooks card' })
export class CdsCard {
  @Field({ nullable: true, description: 'Unique per card, for feedback' })
  uuid?: string;

  @Field({ description: 'One sentence, under 140 characters' })
  summary!: string;

  @Field({ nullable: true, description: 'Markdown' })
  detail?: string;

  @Field(() => CdsIndicator, { description: 'Urgency: info, warning or critical' })
  indicator!: CdsIndicator;

  @Field(() => CdsSource, { description: 'The source the entry comes from' })
  source!: CdsSource;

  @Field(() => [CdsSuggestion], { nullable: true, description: 'Suggested changes, at most one to choose' })
  suggestions?: CdsSuggestion[];

  @Field({ nullable: true, description: 'at-most-one or any, with suggestions' })
  selectionBehavior?: string;

  @Field(() => [CdsCoding], { nullable: true, description: 'Reasons a clinician may give for overriding the card' })
  overrideReasons?: CdsCoding[];

  @Field(() => [CdsLink], { nullable: true, description: 'Links to more information' })
  links?: CdsLink[];
}

@ObjectType({ description: "A CDS service's answer to a hook call" })
export class CdsHookResponse {
  @Field(() => [CdsCard], { description: 'Empty when there is nothing to say' })
  cards!: CdsCard[];
}

@InputType({ description: 'A CDS Hooks request (the body a CDS client posts)' })
export class CdsHookRequestInput {
  @Field({ description: 'The hook that fired: patient-view, order-select, order-sign' })
  hook!: string;

  @Field({ description: 'A UUID for this hook call' })
  hookInstance!: string;

  @Field({ nullable: true, description: "The client's FHIR server (not called: missing prefetch is read from the platform's own data)" })
  fhirServer?: string;

  @Field(() => GraphQLJSON, { nullable: true, description: 'Ignored: the platform authorises the caller by its own token' })
  fhirAuthorization?: unknown;

  @Field(() => GraphQLJSON, { description: "The hook's context (a JSON object): userId, patientId, encounterId, selections, draftOrders" })
  context!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: 'Prefetched FHIR data (a JSON object), by the keys the service declared' })
  prefetch?: unknown;
}
