import type { FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { byIds, isUuid, paginate, type PageResult } from '../../../shared/model';
import {
  canSeeOrganization,
  hasPlatformPermission,
  requireOrgPermission,
  requirePlatformPermission,
  requireViewer,
} from '../../../shared/permissions';
import { requireActiveOrganization } from '../../../shared/refs';
import { seal } from '../../../shared/secrets';
import type { SubgraphContext } from '../../../shared/subgraph';
import { auditChange } from '../../../shared/audit/audit-trail';
import { isPlatformAdmin } from '../../../shared/viewer';
import { AiDevice, AiModel, AiModelStatus, AiRuntime, DeviceStatus } from './ai.entity';
import type {
  AiDeviceHeartbeatInput,
  AiDeviceListArgs,
  AiModelInfoArgs,
  AiModelListArgs,
  CreateAiDeviceInput,
  CreateAiModelInput,
} from './ai.types';

const MODEL_RESOURCE = 'ai_model';
const DEVICE_RESOURCE = 'ai_device';
/** A device is offline when it has missed this many heartbeat intervals. */
export const MISSED_HEARTBEATS_OFFLINE = 3;

/** An http(s) address without credentials, query or fragment: the only place an external model is called. */
function checkEndpoint(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw errors.invalidField('endpoint', 'must be an http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw errors.invalidField('endpoint', 'must be an http or https URL');
  if (url.username || url.password) throw errors.invalidField('endpoint', 'must not carry credentials (send apiKey instead)');
  if (url.search || url.hash) throw errors.invalidField('endpoint', 'must not have a query or fragment');
  return url.toString().replace(/\/+$/, '');
}

/** The device's status now: offline once it has missed three heartbeats (by the clock), else what it last said. */
export function deviceStatus(d: AiDevice, now = clock.now()): DeviceStatus {
  if (!d.lastHeartbeatAt) return DeviceStatus.registered;
  if (now.getTime() - d.lastHeartbeatAt.getTime() > MISSED_HEARTBEATS_OFFLINE * d.heartbeatIntervalSeconds * 1000)
    return DeviceStatus.offline;
  return d.reportedStatus as unknown as DeviceStatus;
}

export function loadModel(ctx: SubgraphContext, id: string): Promise<AiModel | null> {
  return isUuid(id) ? ctx.loader<string, AiModel>('ai-model', byIds(ctx.em, AiModel)).load(id) : Promise.resolve(null);
}

export class ModelRegistryService {
  /** Registers an external model (platform administrators). Built-in models ship with the platform. */
  async create(ctx: SubgraphContext, input: CreateAiModelInput): Promise<AiModel> {
    const viewer = requirePlatformPermission(ctx.viewer, 'ai:models');
    if (input.runtime === AiRuntime.builtin)
      throw errors.invalidField('runtime', 'must be kserve_v2 or openai: built-in models ship with the platform');
    const endpoint = checkEndpoint(input.endpoint);
    if (await ctx.em.count(AiModel, { name: input.name, version: input.version })) {
      throw errors.duplicate(`Model ${input.name} ${input.version} is already registered; register a new version`);
    }
    const model = ctx.em.create(AiModel, {
      name: input.name,
      version: input.version,
      task: input.task,
      runtime: input.runtime,
      endpoint,
      remoteModel: input.remoteModel?.trim() || input.name,
      validationReference: input.validationReference.trim(),
      description: input.description?.trim() ?? null,
      status: AiModelStatus.active,
      timeoutMs: input.timeoutMs ?? 10000,
      credential: input.apiKey ? await seal(input.apiKey) : null,
      registeredBy: viewer.userId,
    });
    auditChange(ctx, {
      action: 'create',
      resourceType: MODEL_RESOURCE,
      resourceId: model.id,
      details: { name: model.name, version: model.version, task: model.task, runtime: model.runtime, endpoint },
    });
    await ctx.em.flush();
    return model;
  }

  /** The registry, for any signed-in caller (endpoints are shown to administrators only). */
  async list(ctx: SubgraphContext, args: AiModelListArgs): Promise<PageResult<AiModel>> {
    requireViewer(ctx.viewer);
    const where: FilterQuery<AiModel> = {};
    if (args.task) where.task = args.task;
    if (args.status) where.status = args.status;
    return paginate(ctx.em, AiModel, where, args, { task: 'asc', name: 'asc', version: 'desc' });
  }

  /** Public metadata of the active models (no endpoints). */
  async info(ctx: SubgraphContext, args: AiModelInfoArgs): Promise<PageResult<AiModel>> {
    const where: FilterQuery<AiModel> = { status: AiModelStatus.active };
    if (args.modelId !== undefined && args.modelId !== null) {
      if (!isUuid(args.modelId)) return { items: [], total: 0, page: args.page, limit: args.limit };
      where.id = args.modelId;
    }
    if (args.name) where.name = args.name.trim();
    if (args.task) where.task = args.task;
    return paginate(ctx.em, AiModel, where, args, { task: 'asc', name: 'asc', version: 'desc' });
  }

  /** The registered endpoint, for administrators of the registry only. */
  endpointFor(ctx: SubgraphContext, model: AiModel): string | null {
    return hasPlatformPermission(ctx.viewer, 'ai:models') ? (model.endpoint ?? null) : null;
  }
}

export class DeviceRegistryService {
  /**
   * Registers a device of an organization (its ORG:ADMIN, or a key with ai-devices:write); registering the same
   * serial number again updates the registration (a device reinstalled keeps its identity).
   */
  async register(ctx: SubgraphContext, input: CreateAiDeviceInput): Promise<AiDevice> {
    if (!isUuid(input.organizationId)) throw errors.notFound('Organization');
    const viewer = requireOrgPermission(ctx.viewer, input.organizationId, 'ai-devices:manage');
    await requireActiveOrganization(ctx, input.organizationId, 'organizationId');
    const model = await loadModel(ctx, input.modelId);
    if (!model) throw errors.invalidField('modelId', 'must be a registered AI model');
    if (model.status !== AiModelStatus.active) throw errors.invalidField('modelId', 'must be an active model (this one is retired)');
    const serialNumber = input.serialNumber.trim();
    const fields = {
      name: input.name.trim(),
      modelId: model.id,
      location: input.location?.trim() ?? null,
      heartbeatIntervalSeconds: input.heartbeatIntervalSeconds ?? 60,
    };
    let device = await ctx.em.findOne(AiDevice, { organizationId: input.organizationId, serialNumber });
    if (device) {
      ctx.em.assign(device, fields);
      auditChange(ctx, {
        action: 'update',
        resourceType: DEVICE_RESOURCE,
        resourceId: device.id,
        organizationId: device.organizationId,
        details: { serialNumber, modelId: model.id },
      });
    } else {
      device = ctx.em.create(AiDevice, { organizationId: input.organizationId, serialNumber, ...fields, registeredBy: viewer.userId });
      auditChange(ctx, {
        action: 'create',
        resourceType: DEVICE_RESOURCE,
        resourceId: device.id,
        organizationId: device.organizationId,
        details: { serialNumber, modelId: model.id },
      });
    }
    await ctx.em.flush();
    return device;
  }

  /** A heartbeat: the model version and status the device reports, at the server's time. */
  async heartbeat(ctx: SubgraphContext, deviceId: string, input: AiDeviceHeartbeatInput): Promise<AiDevice> {
    const viewer = requireViewer(ctx.viewer);
    const device = isUuid(deviceId) ? await ctx.em.findOne(AiDevice, { id: deviceId }) : null;
    if (!device || !canSeeOrganization(viewer, device.organizationId)) throw errors.notFound('AI device');
    requireOrgPermission(viewer, device.organizationId, 'ai-devices:manage', 'AI device');
    device.reportedModelVersion = input.modelVersion.trim();
    device.reportedStatus = input.status;
    device.lastMessage = input.message?.trim() ?? null;
    device.lastHeartbeatAt = clock.now();
    await ctx.em.flush();
    return device;
  }

  /** Devices of one organization the caller belongs to, or of all of theirs (administrators: every device). */
  async list(ctx: SubgraphContext, args: AiDeviceListArgs): Promise<PageResult<AiDevice>> {
    const viewer = requireViewer(ctx.viewer);
    let orgs: string[] | null;
    if (args.organizationId) {
      if (!isUuid(args.organizationId) || !canSeeOrganization(viewer, args.organizationId)) throw errors.notFound('Organization');
      orgs = [args.organizationId];
    } else if (viewer.apiKey) {
      orgs = [viewer.apiKey.organizationId];
    } else {
      orgs = isPlatformAdmin(viewer) ? null : viewer.memberships.map((m) => m.organizationId);
    }
    if (orgs && !orgs.length) return { items: [], total: 0, page: args.page, limit: args.limit };
    const qb = ctx.em.createQueryBuilder(AiDevice, 'd');
    if (orgs) qb.where({ organizationId: { $in: orgs } });
    if (args.online !== undefined && args.online !== null) {
      const now = clock.now().toISOString();
      const fresh = `d.last_heartbeat_at is not null and d.last_heartbeat_at >= ?::timestamptz - (d.heartbeat_interval_seconds * ${MISSED_HEARTBEATS_OFFLINE}) * interval '1 second'`;
      qb.andWhere(args.online ? fresh : `not (${fresh})`, [now]);
    }
    qb.orderBy({ name: 'asc', id: 'asc' })
      .limit(args.limit)
      .offset((args.page - 1) * args.limit);
    const [items, total] = await qb.getResultAndCount();
    return { items, total, page: args.page, limit: args.limit };
  }
}
