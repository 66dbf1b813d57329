import { defineModule } from '../../../shared/module';
import { RevenueOrganization } from '../organization';
import { billingWebhooks } from './billing.consumers';
import { OrganizationSubscriptionResolver } from './billing.resolver';
import { Subscription, SubscriptionInvoice } from './subscription.entity';

export default defineModule({
  name: 'billing',
  description:
    "Organizations' platform subscriptions and their invoices, kept by the billing provider's webhooks (checkout, invoices, subscription changes) in the provider's order, whatever order they arrive in",
  entities: [Subscription, SubscriptionInvoice],
  resolvers: [OrganizationSubscriptionResolver],
  references: { Organization: RevenueOrganization.resolveReference },
  consumers: [billingWebhooks],
});
