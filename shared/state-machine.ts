import { errors } from './errors';

/**
 * A state machine written down once: each action names the states it may start from and the state it leads to.
 * Services call `next` for a transition; an illegal one is a 409 CONFLICT that says what was tried and why not.
 * The pages under docs/ print every machine from these definitions.
 */
export interface StateMachine<S extends string, A extends string> {
  name: string;
  transitions: Record<A, { from: readonly S[]; to: S }>;
  next(current: S, action: A): S;
  can(current: S, action: A): boolean;
  /**
   * The action that moves `current` to `target`, for endpoints that take the state wanted rather than an action
   * (`PATCH .../status`). When no action leads there from `current`, one that leads to `target` from elsewhere is
   * answered, so `next` refuses it with the usual 409; undefined when no action leads to `target` at all. Without
   * `current` (not loaded yet), the first action that leads to `target`.
   */
  actionTo(current: S | undefined, target: S): A | undefined;
}

export function stateMachine<S extends string, A extends string>(
  name: string,
  transitions: Record<A, { from: readonly S[]; to: S }>,
): StateMachine<S, A> {
  return {
    name,
    transitions,
    can: (current, action) => transitions[action].from.includes(current),
    actionTo(current, target) {
      const leading = (Object.keys(transitions) as A[]).filter((a) => transitions[a].to === target);
      return (current === undefined ? undefined : leading.find((a) => transitions[a].from.includes(current))) ?? leading[0];
    },
    next(current, action) {
      const t = transitions[action];
      if (!t.from.includes(current)) {
        const article = /^[aeiou]/i.test(name) ? 'an' : 'a';
        throw errors.illegalTransition(
          `Cannot ${action.replace(/_/g, ' ')} ${article} ${name} that is ${current.replace(/_/g, ' ')}`,
          current,
          action,
        );
      }
      return t.to;
    },
  };
}
