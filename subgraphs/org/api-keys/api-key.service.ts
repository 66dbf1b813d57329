import type { FilterQuery } from '@mikro-orm/core';
import { clock } from '../../../shared/clock';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { can, requireOrgPermission, requireUser } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { randomToken, sha256 } from '../../../shared/tokens';
import { isPlatformAdmin, type Viewer } from '../../../shared/viewer';
import { recordSecurityEvent } from '../security/security-log';
import { forgetApiKeySecrets } from '../users/identity';
import { ApiKey, ApiKeySecret } from './api-key.entity';
import type { ApiKeyListArgs, ApiKeyWithSecret, CreateApiKeyInput } from './api-key.types';

/** How long a rotated-out secret keeps working. */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;

const newSecret = () => `ccp_${randomToken(32)}`;

/** The key's own fields (read through the prototype) plus its new secret, as one flat answer. */
function withSecret(apiKey: ApiKey, key: string, previousValidUntil: Date | null): ApiKeyWithSecret {
  return Object.assign(Object.create(apiKey) as ApiKeyWithSecret, { key, previousValidUntil });
}

/**
 * Developer API keys, managed by organization administrators. A key acts for its organization with only its
 * scopes; secrets are stored as SHA-256 and shown once.
 */
export class ApiKeyService {
  async create(ctx: SubgraphContext, input: CreateApiKeyInput): Promise<ApiKeyWithSecret> {
    const viewer = requireUser(ctx.viewer);
    const organizationId = input.organizationId ?? this.onlyAdministeredOrganization(viewer);
    requireOrgPermission(viewer, organizationId, 'api-keys:manage');
    const key = newSecret();
    const apiKey = ctx.em.create(ApiKey, {
      organizationId,
      name: input.name.trim(),
      scopes: [...new Set(input.scopes)].sort(),
      prefix: key.slice(0, 12),
      createdBy: viewer.userId,
    });
    ctx.em.create(ApiKeySecret, { apiKey, secretHash: sha256(key), validUntil: null });
    recordSecurityEvent(ctx, { type: 'api_key_created', organizationId, details: { api_key_id: apiKey.id, scopes: apiKey.scopes } });
    await ctx.em.flush();
    return withSecret(apiKey, key, null);
  }

  /** Keys of the organizations the caller administers (or of one of them). Never their secrets. */
  async list(ctx: SubgraphContext, args: ApiKeyListArgs): Promise<PageResult<ApiKey>> {
    const viewer = requireUser(ctx.viewer);
    const where: FilterQuery<ApiKey> = {};
    if (args.organizationId) {
      requireOrgPermission(viewer, args.organizationId, 'api-keys:manage');
      where.organizationId = args.organizationId;
    } else if (!isPlatformAdmin(viewer)) {
      where.organizationId = { $in: this.administered(viewer) };
    }
    return paginate(ctx.em, ApiKey, where, args);
  }

  /** A new secret; the previous one keeps working for exactly 24 hours. */
  async rotate(ctx: SubgraphContext, id: string): Promise<ApiKeyWithSecret> {
    const apiKey = await this.manageable(ctx, id);
    if (apiKey.revokedAt) throw errors.conflict('A revoked key cannot be rotated');
    const previousValidUntil = new Date(clock.nowMs() + ROTATION_GRACE_MS);
    const current = await ctx.em.find(ApiKeySecret, { apiKey, validUntil: null });
    for (const secret of current) secret.validUntil = previousValidUntil;
    const key = newSecret();
    ctx.em.create(ApiKeySecret, { apiKey, secretHash: sha256(key), validUntil: null });
    apiKey.prefix = key.slice(0, 12);
    recordSecurityEvent(ctx, {
      type: 'api_key_rotated',
      organizationId: apiKey.organizationId,
      details: { api_key_id: apiKey.id, previous_valid_until: previousValidUntil.toISOString() },
    });
    await ctx.em.flush();
    await forgetApiKeySecrets(current.map((s) => s.secretHash));
    return withSecret(apiKey, key, previousValidUntil);
  }

  /** Every secret of the key is rejected from the next request on. */
  async revoke(ctx: SubgraphContext, id: string): Promise<ApiKey> {
    const apiKey = await this.manageable(ctx, id);
    if (!apiKey.revokedAt) {
      apiKey.revokedAt = clock.now();
      recordSecurityEvent(ctx, { type: 'api_key_revoked', organizationId: apiKey.organizationId, details: { api_key_id: apiKey.id } });
      await ctx.em.flush();
    }
    const secrets = await ctx.em.find(ApiKeySecret, { apiKey });
    await forgetApiKeySecrets(secrets.map((s) => s.secretHash));
    return apiKey;
  }

  private async manageable(ctx: SubgraphContext, id: string): Promise<ApiKey> {
    const viewer = requireUser(ctx.viewer);
    const apiKey = isUuid(id) ? await ctx.em.findOne(ApiKey, { id }) : null;
    if (!apiKey || !can(viewer, 'api-keys:manage', apiKey.organizationId)) throw errors.notFound('API key');
    return apiKey;
  }

  private administered(viewer: Viewer): string[] {
    return viewer.memberships.filter((m) => can(viewer, 'api-keys:manage', m.organizationId)).map((m) => m.organizationId);
  }

  private onlyAdministeredOrganization(viewer: Viewer): string {
    const orgs = this.administered(viewer);
    if (orgs.length === 1) return orgs[0];
    throw errors.invalidField(
      'organizationId',
      orgs.length ? 'is required: you administer several organizations' : 'is required: name an organization you administer',
    );
  }
}
