import { ArgsType, Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { TransitionArgs } from '../../../shared/transitions';
import { IsText } from '../../../shared/validation';
import { SecurityEvent } from '../security/security-event.entity';
import { User, UserStatus } from '../users/user.entity';

@ArgsType()
export class UserListArgs extends PageArgs {
  @Field({ nullable: true, description: 'A registration role (DOCTOR) or a platform role (SUPER:ADMIN)' })
  @IsText(50)
  role?: string;

  @Field(() => UserStatus, { nullable: true, description: 'Only users in this account status; every status when omitted' })
  status?: UserStatus;

  @Field({ nullable: true, description: 'Case-insensitive match on email or name' })
  @IsText(100)
  search?: string;
}

@ObjectType()
export class UserPage extends PageOf(User) {}

@ArgsType()
export class UserTransitionArgs extends TransitionArgs {
  @Field(() => String, { nullable: true, description: 'Why, for the audit trail' })
  @IsText(500)
  override reason?: string | null;
}

export enum HealthStatus {
  ok = 'ok',
  degraded = 'degraded',
}
registerEnumType(HealthStatus, { name: 'HealthStatus', description: 'The health of one dependency of the platform' });

@ObjectType({ description: 'How many jobs a queue holds, by state' })
export class QueueCounts {
  @Field()
  waiting!: number;
  @Field()
  active!: number;
  @Field()
  delayed!: number;
  @Field()
  failed!: number;
  @Field()
  completed!: number;
}

@ObjectType({ description: 'The health of one dependency (database, Redis, queues) and how long it took to answer' })
export class DependencyCheck {
  @Field({ description: 'postgres, redis, or queue:<name>' })
  name!: string;

  @Field(() => Boolean)
  ok!: boolean;

  @Field({ description: 'Milliseconds the check took' })
  latencyMs!: number;

  @Field(() => String, { nullable: true })
  error?: string | null;

  @Field(() => QueueCounts, { nullable: true })
  counts?: QueueCounts | null;
}

@ObjectType({ description: 'The health of the platform and of each dependency' })
export class SystemHealth {
  @Field(() => HealthStatus)
  status!: HealthStatus;

  @Field(() => [DependencyCheck])
  checks!: DependencyCheck[];

  @Field()
  checkedAt!: Date;
}

@ArgsType()
export class SecurityEventArgs extends PageArgs {
  @Field(() => ID, { nullable: true, description: 'Whose account; administrators only (others see their own)' })
  userId?: string;

  @Field({ nullable: true, description: 'Only events of this type (such as login_failed); a type never recorded finds nothing' })
  @IsText(50)
  type?: string;
}

@ObjectType()
export class SecurityEventPage extends PageOf(SecurityEvent) {}
