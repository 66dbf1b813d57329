import { Args, ArgsType, Ctx, Field, ID, Mutation, Resolver, type ClassType } from 'type-graphql';
import type { PlatformPermission } from './permissions';
import { RequiresPlatformPermission } from './requires-permission';
import type { StateMachine } from './state-machine';
import type { SubgraphContext } from './subgraph';

/** The arguments of a transition mutation: the record and, for the record's history, why. */
@ArgsType()
export class TransitionArgs {
  @Field(() => ID, { description: 'The record to move' })
  id!: string;

  @Field(() => String, { nullable: true, description: 'Why, kept with the record' })
  reason?: string | null;
}

export interface TransitionMutation {
  /** The mutation's name: a verb and the record (`confirmAppointment`). */
  name: string;
  description: string;
}

export interface TransitionFamily<T extends object, A extends string, Arguments extends TransitionArgs> {
  /** The record's GraphQL type, answered by every mutation. */
  type: () => ClassType<T>;
  /** The machine the actions come from; each mutation names one of its actions. */
  machine: StateMachine<string, A>;
  mutations: Partial<Record<A, TransitionMutation>>;
  /** The arguments' class when a module checks `reason` (an `@ArgsType` extending TransitionArgs). */
  args?: ClassType<Arguments>;
  /** The one service method every mutation calls: it loads the record and moves it by `MACHINE.next(current, action)`. */
  run: (ctx: SubgraphContext, args: Arguments, action: A) => Promise<T>;
  /** The platform permission every mutation needs, for families only platform roles move (shared/requires-permission.ts). */
  permission?: PlatformPermission;
}

/**
 * One mutation per transition of a state machine (`confirmAppointment`, `checkInAppointment`, ...), all calling one
 * service method with the action, so the graph names each state change while the rules stay in one place. The
 * answer is a resolver class for the module's `resolvers`.
 */
export function transitionResolver<T extends object, A extends string, Arguments extends TransitionArgs = TransitionArgs>(
  family: TransitionFamily<T, A, Arguments>,
): ClassType {
  const argsType = family.args ?? (TransitionArgs as ClassType<Arguments>);
  @Resolver()
  class Transitions {}
  for (const [action, mutation] of Object.entries(family.mutations) as [A, TransitionMutation][]) {
    if (!(action in family.machine.transitions)) throw new Error(`${mutation.name}: ${family.machine.name} has no action ${action}`);
    const prototype = Transitions.prototype as unknown as Record<string, unknown>;
    prototype[mutation.name] = (args: Arguments, ctx: SubgraphContext) => family.run(ctx, args, action);
    Args(() => argsType)(prototype, mutation.name, 0);
    Ctx()(prototype, mutation.name, 1);
    const descriptor = Object.getOwnPropertyDescriptor(prototype, mutation.name)!;
    Mutation(family.type, { description: mutation.description })(prototype, mutation.name, descriptor);
    if (family.permission) RequiresPlatformPermission(family.permission)(prototype, mutation.name, descriptor);
  }
  Object.defineProperty(Transitions, 'name', {
    value: `${family.machine.name.replace(/\W+(\w)?/g, (_, c: string) => c?.toUpperCase() ?? '')}Transitions`,
  });
  return Transitions;
}
