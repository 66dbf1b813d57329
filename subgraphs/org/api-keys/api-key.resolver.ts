import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { SubgraphContext } from '../../../shared/subgraph';
import { ApiKey } from './api-key.entity';
import { ApiKeyService } from './api-key.service';
import { ApiKeyListArgs, ApiKeyPage, ApiKeyWithSecret, CreateApiKeyInput } from './api-key.types';

@Resolver(() => ApiKey)
export class ApiKeyResolver {
  private readonly service = new ApiKeyService();

  @Mutation(() => ApiKeyWithSecret, { description: 'Create a developer API key (organization administrators)' })
  createApiKey(
    @Arg('input', { description: 'The new API key: its name, scopes and expiry' }) input: CreateApiKeyInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @Query(() => ApiKeyPage, { description: 'API keys of the organizations the caller administers' })
  apiKeys(@Args() args: ApiKeyListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Mutation(() => ApiKeyWithSecret, { description: 'Give a key a new secret; the previous one works 24 more hours' })
  rotateApiKey(@Arg('id', () => ID, { description: 'The API key' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.rotate(ctx, id);
  }

  @Mutation(() => ApiKey, { description: 'Revoke a key at once' })
  revokeApiKey(@Arg('id', () => ID, { description: 'The API key' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.revoke(ctx, id);
  }
}
