import { defineModule } from '../../../shared/module';
import { AuthResolver } from './auth.resolver';
import { ensureBootstrapAdmin } from './auth.service';
import { Session } from './session.entity';
import { RecoveryCode, UserIdentity, UserToken } from './user-token.entity';
import { User } from './user.entity';
import { UserResolver } from './user.resolver';
import { USER_CREATED } from './user.events';

export default defineModule({
  name: 'users',
  description:
    'Accounts and sign-in: registration, login, refresh rotation, logout, email verification, password reset, social login, referral codes, TOTP MFA',
  entities: [User, Session, UserToken, RecoveryCode, UserIdentity],
  resolvers: [AuthResolver, UserResolver],
  references: { User: UserResolver.resolveReference },
  topics: [USER_CREATED],
  onStart: (runtime) => ensureBootstrapAdmin(runtime.orm.em.fork()),
});
