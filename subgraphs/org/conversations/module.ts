import { defineModule } from '../../../shared/module';
import { idLinkFields } from '../../../shared/refs';
import { organizationField } from '../organizations/organization-link';
import { userFields } from '../users/user-link';
import { Conversation, ConversationMessage, ConversationParticipant } from './conversation.entity';
import { ConversationMessageResolver, ConversationResolver } from './conversation.resolver';
import { ConversationService } from './conversation.service';
import { messagingWebhooks } from './messaging.consumers';
import { MessagingMessage, MessagingReceipt } from './messaging.entity';

export default defineModule({
  name: 'conversations',
  description: "An organization's conversations and messages, and patients' messages through the messaging provider",
  entities: [Conversation, ConversationParticipant, ConversationMessage, MessagingMessage, MessagingReceipt],
  resolvers: [
    organizationField(Conversation),
    userFields(Conversation, { createdByUser: { id: 'createdBy' } }),
    userFields(ConversationMessage, { sender: { id: 'senderId' } }),
    idLinkFields(ConversationMessage, 'ConversationLink', {
      conversation: {
        id: 'conversationId' as keyof ConversationMessage & string,
        type: Conversation,
        description: 'The conversation it was sent in; null when the caller may not read it (the rule of conversation(id))',
        resolve: (id, ctx) => new ConversationService().visible(ctx, id),
      },
    }),
    ConversationResolver,
    ConversationMessageResolver,
  ],
  consumers: [messagingWebhooks],
});
