import { defineModule } from '../../../shared/module';
import { organizationField } from '../organizations/organization-link';
import { userFields } from '../users/user-link';
import { Conversation, ConversationMessage, ConversationParticipant } from './conversation.entity';
import { ConversationMessageResolver, ConversationResolver } from './conversation.resolver';
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
    ConversationResolver,
    ConversationMessageResolver,
  ],
  consumers: [messagingWebhooks],
});
