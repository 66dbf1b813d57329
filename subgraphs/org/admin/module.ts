import { defineModule } from '../../../shared/module';
import { AdminResolver, UserAccountTransitionResolver } from './admin.resolver';

export default defineModule({
  name: 'admin',
  description: "Platform administration: users and their status, the platform's health, security events",
  resolvers: [AdminResolver, UserAccountTransitionResolver],
});
