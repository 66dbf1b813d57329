import { Entity, Enum, Index, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BaseRecord } from '../../../shared/model';

export enum AiTask {
  diagnosis = 'diagnosis',
  lab_interpretation = 'lab_interpretation',
  risk_stratification = 'risk_stratification',
  cancer_detection = 'cancer_detection',
  general = 'general',
}
registerEnumType(AiTask, {
  name: 'AiTask',
  description:
    'What a model does: diagnosis (differential), lab_interpretation, risk_stratification, cancer_detection (images), general (cloud inference)',
});

export enum AiRuntime {
  builtin = 'builtin',
  kserve_v2 = 'kserve_v2',
  openai = 'openai',
}
registerEnumType(AiRuntime, {
  name: 'AiRuntime',
  description:
    'builtin: runs inside the platform, offline; kserve_v2: the Open Inference Protocol (KServe, Triton, Seldon, MLServer); openai: an OpenAI-compatible chat completions API',
});

export enum AiModelStatus {
  active = 'active',
  retired = 'retired',
}
registerEnumType(AiModelStatus, { name: 'AiModelStatus', description: 'active: used; retired: kept for the record, never called' });

/** A model the AI services may run: built in (shipped with the platform), or external at a registered address. */
@ObjectType('AiModel', { description: 'An AI model of the registry, with what it was validated against' })
@Entity({ tableName: 'ai_models' })
@Unique({ properties: ['name', 'version'] })
@Index({ properties: ['task', 'status'] })
export class AiModel extends BaseRecord {
  @Field({ description: 'The model name; with the version, unique' })
  @Property({ type: 'text' })
  name!: string;

  @Field({ description: 'The model version every answer names' })
  @Property({ type: 'text' })
  version!: string;

  @Field(() => AiTask, { description: 'What it does' })
  @Enum({ items: () => AiTask })
  task!: AiTask;

  @Field(() => AiRuntime, { description: 'How it is run' })
  @Enum({ items: () => AiRuntime })
  runtime!: AiRuntime;

  /** Where an external model answers: the only address the platform calls for it. Shown to administrators. */
  @Property({ type: 'text', nullable: true })
  endpoint?: string | null;

  @Field(() => String, { nullable: true, description: 'The model name at the endpoint (KServe model name, OpenAI model id)' })
  @Property({ type: 'text', nullable: true })
  remoteModel?: string | null;

  @Field({ description: 'How and where the model was validated (publication, dataset, local evaluation), or that it was not' })
  @Property({ type: 'text' })
  validationReference!: string;

  @Field(() => String, { nullable: true, description: 'What it is, in a sentence' })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field(() => AiModelStatus, { description: 'active or retired' })
  @Enum({ items: () => AiModelStatus })
  status: Opt<AiModelStatus> = AiModelStatus.active;

  @Field(() => Int, { description: 'How long a call may take before it is abandoned (504), milliseconds' })
  @Property({ type: 'integer' })
  timeoutMs!: number;

  /** The API key sent to the endpoint, sealed (shared/secrets.ts); never shown. */
  @Property({ type: 'text', nullable: true, lazy: true })
  credential?: string | null;

  @Field(() => ID, { nullable: true, description: 'The administrator who registered it; none for built-in models' })
  @Property({ type: 'uuid', nullable: true })
  registeredBy?: string | null;
}

export enum DeviceReportedStatus {
  running = 'running',
  idle = 'idle',
  updating = 'updating',
  error = 'error',
}
registerEnumType(DeviceReportedStatus, { name: 'DeviceReportedStatus', description: 'What a device says it is doing, in its heartbeat' });

export enum DeviceStatus {
  registered = 'registered',
  running = 'running',
  idle = 'idle',
  updating = 'updating',
  error = 'error',
  offline = 'offline',
}
registerEnumType(DeviceStatus, {
  name: 'DeviceStatus',
  description: 'registered: no heartbeat yet; offline: no heartbeat for three intervals; otherwise what the last heartbeat said',
});

/** A device at the edge (a clinic's imaging workstation, a point-of-care analyser) running a model of the registry. */
@ObjectType('AiDevice', { description: 'An edge device running a registered model, with its heartbeat' })
@Entity({ tableName: 'ai_devices' })
@Unique({ properties: ['organizationId', 'serialNumber'] })
export class AiDevice extends BaseRecord {
  @Field(() => ID, { description: 'The organization that runs it' })
  @Index()
  @Property({ type: 'uuid' })
  organizationId!: string;

  @Field({ description: "The device's own identifier (serial number); one registration per organization" })
  @Property({ type: 'text' })
  serialNumber!: string;

  @Field({ description: 'A name people recognise it by' })
  @Property({ type: 'text' })
  name!: string;

  @Field(() => ID, { description: 'The registered model it runs' })
  @Property({ type: 'uuid' })
  modelId!: string;

  @Field(() => String, { nullable: true, description: 'Where it is (ward, room)' })
  @Property({ type: 'text', nullable: true })
  location?: string | null;

  @Field(() => Int, { description: 'How often it sends a heartbeat; three missed intervals show it offline' })
  @Property({ type: 'integer' })
  heartbeatIntervalSeconds!: number;

  @Field(() => String, { nullable: true, description: 'The model version it reported running' })
  @Property({ type: 'text', nullable: true })
  reportedModelVersion?: string | null;

  @Field(() => DeviceReportedStatus, { nullable: true, description: 'What its last heartbeat said' })
  @Enum({ items: () => DeviceReportedStatus, nullable: true })
  reportedStatus?: DeviceReportedStatus | null;

  @Field(() => String, { nullable: true, description: 'The message of its last heartbeat' })
  @Property({ type: 'text', nullable: true })
  lastMessage?: string | null;

  @Field(() => Date, { nullable: true, description: 'When the last heartbeat arrived (server time)' })
  @Property({ type: 'timestamptz', nullable: true })
  lastHeartbeatAt?: Date | null;

  @Field(() => ID, { description: 'Who registered it (a user, or the creator of the API key used)' })
  @Property({ type: 'uuid' })
  registeredBy!: string;
}
