import { clock } from '../../../shared/clock';
import { keysetConnection, windowOf, type Connection, type ConnectionArgs, type KeysetList } from '../../../shared/connection';
import { errors } from '../../../shared/errors';
import { isUuid, paginate, type PageResult } from '../../../shared/model';
import { readableById } from '../../../shared/refs';
import { requireUser } from '../../../shared/permissions';
import type { SubgraphContext } from '../../../shared/subgraph';
import { membershipRole, type Viewer } from '../../../shared/viewer';
import { tableOf } from '../facilities/organization-scope';
import { OrganizationMember } from '../organizations/organization.entity';
import { Conversation, ConversationMessage, ConversationParticipant } from './conversation.entity';
import type { ConversationListArgs, CreateConversationInput, MessageListArgs, SendMessageInput } from './conversation.types';

const WHAT = 'Conversation';

/** A conversation's messages, newest first (`created_at`, then id), read by keyset. */
const MESSAGES: KeysetList<ConversationMessage> = {
  name: 'conversation-messages',
  entity: ConversationMessage,
  parentColumn: 'conversation_id',
  sortColumn: 'created_at',
};

/**
 * Conversations are between people of one organization: API keys are refused (403), and anyone who is not a member
 * (platform administrators included) learns nothing (404).
 */
function requireMember(ctx: SubgraphContext, organizationId: string): Viewer {
  const viewer = requireUser(ctx.viewer);
  if (!isUuid(organizationId) || !membershipRole(viewer, organizationId)) throw errors.notFound(WHAT);
  return viewer;
}

export class ConversationService {
  /** Starts a conversation between the caller and other members of the organization. */
  async create(ctx: SubgraphContext, organizationId: string, input: CreateConversationInput): Promise<Conversation> {
    const viewer = requireMember(ctx, organizationId);
    const subject = input.subject?.trim();
    if (!subject) throw errors.invalidField('subject', 'is required');
    if (input.patientId != null && !isUuid(input.patientId)) throw errors.invalidField('patientId', 'must be a patient id');
    if (input.participantIds.some((id) => !isUuid(id))) throw errors.invalidField('participantIds', 'must be user ids');
    const others = [...new Set(input.participantIds.map((id) => id.toLowerCase()))].filter((id) => id !== viewer.userId);
    if (!others.length) throw errors.invalidField('participantIds', 'must name at least one other member of the organization');
    const members = await ctx.em.find(OrganizationMember, { organization: organizationId, user: { $in: others } });
    const found = new Set(members.map((m) => m.user.id));
    const strangers = others.filter((id) => !found.has(id));
    if (strangers.length) {
      throw errors.invalidField('participantIds', `must be members of the organization; these are not: ${strangers.join(', ')}`);
    }
    const now = clock.now();
    const conversation = ctx.em.create(Conversation, {
      organizationId,
      subject,
      patientId: input.patientId ?? null,
      createdBy: viewer.userId,
      lastActivityAt: now,
    });
    // Participants are listed in the order they were added (the creator first): one millisecond apart, so the
    // order survives rows written in the same instant.
    [viewer.userId, ...others].forEach((userId, i) => {
      const addedAt = new Date(now.getTime() + i);
      ctx.em.create(ConversationParticipant, {
        conversation,
        userId,
        createdAt: addedAt,
        updatedAt: addedAt,
        lastReadAt: userId === viewer.userId ? now : null,
      });
    });
    await ctx.em.flush();
    return conversation;
  }

  /** The caller's conversations in the organization, latest activity first. */
  async list(ctx: SubgraphContext, organizationId: string, args: ConversationListArgs): Promise<PageResult<Conversation>> {
    const viewer = requireMember(ctx, organizationId);
    return paginate(ctx.em, Conversation, { organizationId, participants: { userId: viewer.userId } }, args, {
      lastActivityAt: 'desc',
      id: 'asc',
    });
  }

  async get(ctx: SubgraphContext, organizationId: string, id: string): Promise<Conversation> {
    const viewer = requireMember(ctx, organizationId);
    const conversation = isUuid(id)
      ? await ctx.em.findOne(Conversation, { id, organizationId, participants: { userId: viewer.userId } })
      : null;
    if (!conversation) throw errors.notFound(WHAT);
    return conversation;
  }

  /**
   * A conversation under the rule of `conversation(id)` (a member of its organization taking part in it), batched;
   * null when there is none or the caller may not read it.
   */
  visible(ctx: SubgraphContext, id: string): Promise<Conversation | null> {
    return readableById(
      ctx,
      Conversation,
      id,
      async (viewer, conversation) =>
        !viewer.apiKey &&
        !viewer.system &&
        !!membershipRole(viewer, conversation.organizationId) &&
        (await this.participantIds(ctx, conversation)).includes(viewer.userId),
    );
  }

  /** Messages newest first. Reading the first page marks the conversation read up to its newest message. */
  async messages(
    ctx: SubgraphContext,
    organizationId: string,
    id: string,
    args: MessageListArgs,
  ): Promise<PageResult<ConversationMessage>> {
    const conversation = await this.get(ctx, organizationId, id);
    const page = await paginate(ctx.em, ConversationMessage, { conversation }, args, { createdAt: 'desc', id: 'desc' });
    if (args.page === 1 && page.items.length) await this.markRead(ctx, conversation, ctx.viewer!.userId, page.items[0].createdAt);
    return page;
  }

  /**
   * Messages by cursor, newest first: paging on with `after` never repeats or skips a message, whatever arrives
   * meanwhile (new ones come before the first page: read them with `before` the first cursor). Reading the newest
   * page (no cursor) marks the conversation read up to its newest message, as the first offset page does.
   */
  async messageConnection(
    ctx: SubgraphContext,
    conversation: Conversation,
    args: ConnectionArgs,
  ): Promise<Connection<ConversationMessage>> {
    const connection = await keysetConnection(ctx, MESSAGES, conversation.id, args);
    const newest = connection.nodes[0];
    if (newest && windowOf(args).forward && !args.after) await this.markRead(ctx, conversation, ctx.viewer!.userId, newest.createdAt);
    return connection;
  }

  async send(ctx: SubgraphContext, organizationId: string, id: string, input: SendMessageInput): Promise<ConversationMessage> {
    const found = await this.get(ctx, organizationId, id);
    const body = input.body;
    if (body == null) throw errors.invalidField('body', 'is required');
    const senderId = ctx.viewer!.userId;
    return ctx.em.transactional(async (em) => {
      const conversation = em.getReference(Conversation, found.id);
      const message = em.create(ConversationMessage, { conversation, senderId, body, createdAt: clock.now() });
      await em.flush();
      // Two messages at once: the later time wins whatever the order of the commits.
      const at = message.createdAt;
      await em.nativeUpdate(
        Conversation,
        { id: found.id, $or: [{ lastMessageAt: null }, { lastMessageAt: { $lt: at } }] },
        { lastMessageAt: at, lastActivityAt: at },
      );
      await this.markRead({ ...ctx, em }, conversation, senderId, at);
      return message;
    });
  }

  /** User ids taking part, the creator first; batched across conversations. */
  participantIds(ctx: SubgraphContext, conversation: Conversation): Promise<string[]> {
    return ctx
      .loader<string, string[]>('conversation-participants', async (ids) => {
        const rows = await ctx.em.find(
          ConversationParticipant,
          { conversation: { $in: [...ids] } },
          { orderBy: { createdAt: 'asc', id: 'asc' } },
        );
        return ids.map((cid) => rows.filter((p) => p.conversation.id === cid).map((p) => p.userId));
      })
      .load(conversation.id) as Promise<string[]>;
  }

  /** Messages of others the caller has not seen yet; batched across conversations. */
  unreadCount(ctx: SubgraphContext, conversation: Conversation): Promise<number> {
    const userId = ctx.viewer?.userId;
    if (!userId) return Promise.resolve(0);
    return ctx
      .loader<string, number>('conversation-unread', async (ids) => {
        const sql =
          `select p.conversation_id, count(m.id)::int as n from ${tableOf(ctx.em, ConversationParticipant)} p ` +
          `join ${tableOf(ctx.em, ConversationMessage)} m on m.conversation_id = p.conversation_id and m.sender_id <> p.user_id ` +
          `and (p.last_read_at is null or m.created_at > p.last_read_at) ` +
          `where p.user_id = ? and p.conversation_id in (?) group by p.conversation_id`;
        const rows = await ctx.em
          .getConnection()
          .execute<{ conversation_id: string; n: number }[]>(sql, [userId, [...ids]], 'all', ctx.em.getTransactionContext());
        const counts = new Map(rows.map((r) => [r.conversation_id, r.n]));
        return ids.map((id) => counts.get(id) ?? 0);
      })
      .load(conversation.id) as Promise<number>;
  }

  /** Moves the participant's read mark forward to `at` (never back). */
  private async markRead(ctx: SubgraphContext, conversation: Conversation, userId: string, at: Date): Promise<void> {
    await ctx.em.nativeUpdate(
      ConversationParticipant,
      { conversation, userId, $or: [{ lastReadAt: null }, { lastReadAt: { $lt: at } }] },
      { lastReadAt: at },
    );
  }
}
