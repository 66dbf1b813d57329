import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { RequiresPlatformPermission } from '../../../shared/requires-permission';
import { Public } from '../../../shared/public';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { AiDevice, AiModel, DeviceStatus } from './ai.entity';
import { AiService } from './ai.service';
import {
  AiDeviceHeartbeatInput,
  AiDeviceListArgs,
  AiDevicePage,
  AiModelInfoArgs,
  AiModelListArgs,
  AiModelPage,
  CancerDetectionAnswer,
  CancerDetectionInput,
  CloudInferenceAnswer,
  CloudInferenceInput,
  CreateAiDeviceInput,
  CreateAiModelInput,
  CreateAiModelPayload,
  DiagnosisAnswer,
  DiagnosisInput,
  LabInterpretationAnswer,
  LabInterpretationInput,
  RiskStratificationAnswer,
  RiskStratificationInput,
} from './ai.types';
import { DeviceRegistryService, ModelRegistryService, deviceStatus, loadModel } from './registry.service';

@Resolver()
export class AiResolver {
  private readonly service = new AiService();

  @Mutation(() => DiagnosisAnswer, {
    description: 'A differential diagnosis from symptoms (built-in knowledge base, or a registered model); audited',
  })
  diagnose(
    @Arg('input', { description: 'Symptoms, and optionally age, sex, patient and model' }) input: DiagnosisInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.diagnose(ctx, input);
  }

  @Mutation(() => LabInterpretationAnswer, {
    description: 'Interpret lab results (reference intervals, panic limits, patterns; or a registered model); audited',
  })
  interpretLabResults(
    @Arg('input', { description: 'Results, or a patient whose latest results are read' }) input: LabInterpretationInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.interpretLabs(ctx, input);
  }

  @Mutation(() => RiskStratificationAnswer, {
    description: 'Validated risk scores: pooled cohort equations, CHA2DS2-VASc, qSOFA, LACE; audited',
  })
  stratifyRisk(
    @Arg('input', { description: 'The inputs of each score wanted' }) input: RiskStratificationInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.stratifyRisk(ctx, input);
  }

  @Mutation(() => CancerDetectionAnswer, {
    description: 'Cancer detection on an image by a registered image model (503 when none is registered); audited',
  })
  detectCancer(@Arg('input', { description: 'The image and what it shows' }) input: CancerDetectionInput, @Ctx() ctx: SubgraphContext) {
    return this.service.detectCancer(ctx, input);
  }

  @Mutation(() => CloudInferenceAnswer, {
    description: 'A general call to a registered external model (KServe v2 tensors or OpenAI-compatible messages); audited',
  })
  runInference(@Arg('input', { description: 'The model and its inputs' }) input: CloudInferenceInput, @Ctx() ctx: SubgraphContext) {
    return this.service.runInference(ctx, input);
  }
}

@Resolver(() => AiModel)
export class AiModelResolver {
  private readonly service = new ModelRegistryService();

  @RequiresPlatformPermission('ai:models')
  @PayloadMutation(CreateAiModelPayload, {
    description:
      'Register an external model (SUPER:ADMIN, APP:ADMIN); a bad field or a name and version already registered is a user error',
  })
  createAiModel(@Arg('input', { description: 'The model' }) input: CreateAiModelInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @Query(() => AiModelPage, { description: 'The model registry (any signed-in user)' })
  aiModels(@Args() args: AiModelListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Public()
  @Query(() => AiModelPage, { description: 'Public metadata of the active models (no endpoints)' })
  aiModelInfo(@Args() args: AiModelInfoArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.info(ctx, args);
  }

  @FieldResolver(() => String, { nullable: true, description: 'Where an external model is called (administrators of the registry only)' })
  endpoint(@Root() model: AiModel, @Ctx() ctx: SubgraphContext) {
    return this.service.endpointFor(ctx, model);
  }

  @FieldResolver(() => Boolean, { description: 'Whether an API key is stored for the endpoint (never shown)' })
  hasCredential(@Root() model: AiModel, @Ctx() ctx: SubgraphContext) {
    const loader = ctx.loader<string, boolean>('ai-model-credential', async (ids) => {
      const rows = await ctx.em.find(AiModel, { id: { $in: [...ids] }, credential: { $ne: null } }, { fields: ['id'] });
      const withKey = new Set(rows.map((r) => r.id));
      return ids.map((id) => withKey.has(id));
    });
    return loader.load(model.id);
  }
}

@Resolver(() => AiDevice)
export class AiDeviceResolver {
  private readonly service = new DeviceRegistryService();

  @Mutation(() => AiDevice, {
    description:
      "Register an organization's edge device (ORG:ADMIN, or a key with ai-devices:write); the same serial number again updates it",
  })
  createAiDevice(@Arg('input', { description: 'The device' }) input: CreateAiDeviceInput, @Ctx() ctx: SubgraphContext) {
    return this.service.register(ctx, input);
  }

  @Mutation(() => AiDevice, { description: "Record a device's heartbeat: its model version and status" })
  recordAiDeviceHeartbeat(
    @Arg('deviceId', () => ID, { description: 'The device' }) deviceId: string,
    @Arg('input', { description: 'What it reports' }) input: AiDeviceHeartbeatInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.heartbeat(ctx, deviceId, input);
  }

  @Query(() => AiDevicePage, { description: 'Edge devices of one of my organizations, or of all of them' })
  aiDevices(@Args() args: AiDeviceListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @FieldResolver(() => DeviceStatus, {
    description: 'offline after three missed heartbeats (by the server clock); else what the last heartbeat said',
  })
  status(@Root() device: AiDevice) {
    return deviceStatus(device);
  }

  @FieldResolver(() => Boolean, { description: 'Heard from within three heartbeat intervals' })
  online(@Root() device: AiDevice) {
    const s = deviceStatus(device);
    return s !== DeviceStatus.offline && s !== DeviceStatus.registered;
  }

  @FieldResolver(() => AiModel, { nullable: true, description: 'The registered model it runs' })
  model(@Root() device: AiDevice, @Ctx() ctx: SubgraphContext) {
    return loadModel(ctx, device.modelId);
  }

  @FieldResolver(() => Boolean, {
    nullable: true,
    description: 'Whether the version it reports is the registered model version (null before a heartbeat)',
  })
  async modelUpToDate(@Root() device: AiDevice, @Ctx() ctx: SubgraphContext) {
    if (!device.reportedModelVersion) return null;
    return (await loadModel(ctx, device.modelId))?.version === device.reportedModelVersion;
  }
}
