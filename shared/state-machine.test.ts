import { AppError } from './errors';
import { stateMachine } from './state-machine';

type Status = 'draft' | 'active' | 'on_hold' | 'entered_in_error' | 'completed';
type Action = 'activate' | 'put_on_hold' | 'resume' | 'complete' | 'enter_in_error';

const order = stateMachine<Status, Action>('order', {
  activate: { from: ['draft'], to: 'active' },
  put_on_hold: { from: ['active'], to: 'on_hold' },
  resume: { from: ['on_hold'], to: 'active' },
  complete: { from: ['active', 'on_hold'], to: 'completed' },
  enter_in_error: { from: ['draft', 'active', 'on_hold'], to: 'entered_in_error' },
});

/** What `next` threw, or fails the test when it did not throw. */
function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected the transition to be refused');
}

describe('stateMachine', () => {
  it('moves along every legal transition to the state it names', () => {
    expect(order.next('draft', 'activate')).toBe('active');
    expect(order.next('active', 'put_on_hold')).toBe('on_hold');
    expect(order.next('on_hold', 'resume')).toBe('active');
    expect(order.next('active', 'complete')).toBe('completed');
    expect(order.next('on_hold', 'complete')).toBe('completed');
    for (const from of ['draft', 'active', 'on_hold'] as const) expect(order.next(from, 'enter_in_error')).toBe('entered_in_error');
  });

  it('answers can() exactly as next() behaves, for every state and action', () => {
    const states: Status[] = ['draft', 'active', 'on_hold', 'entered_in_error', 'completed'];
    for (const state of states) {
      for (const action of Object.keys(order.transitions) as Action[]) {
        const legal = order.transitions[action].from.includes(state);
        expect(order.can(state, action)).toBe(legal);
        if (legal) expect(order.next(state, action)).toBe(order.transitions[action].to);
        else expect(() => order.next(state, action)).toThrow(AppError);
      }
    }
  });

  it('refuses an illegal transition with a CONFLICT that says what was tried and from which state', () => {
    const err = refusal(() => order.next('completed', 'put_on_hold'));
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('CONFLICT');
    expect(err.extensions.code).toBe('CONFLICT');
    // Underscores read as words; "an" before a vowel.
    expect(err.message).toBe('Cannot put on hold an order that is completed');
    expect(refusal(() => order.next('entered_in_error', 'resume')).message).toBe('Cannot resume an order that is entered in error');
    const leave = stateMachine<'approved' | 'pending', 'approve'>('leave request', { approve: { from: ['pending'], to: 'approved' } });
    expect(refusal(() => leave.next('approved', 'approve')).message).toBe('Cannot approve a leave request that is approved');
  });

  it('refuses a state that leads nowhere (a final state)', () => {
    for (const action of Object.keys(order.transitions) as Action[]) {
      expect(order.can('completed', action)).toBe(false);
      expect(order.can('entered_in_error', action)).toBe(false);
    }
  });

  describe('actionTo', () => {
    it('names the action that leads from the current state to the target', () => {
      expect(order.actionTo('draft', 'active')).toBe('activate');
      expect(order.actionTo('on_hold', 'active')).toBe('resume');
      expect(order.actionTo('on_hold', 'completed')).toBe('complete');
    });

    it('names an action that leads to the target from elsewhere when none does from here, so next() refuses it', () => {
      const action = order.actionTo('completed', 'active');
      expect(action).toBe('activate');
      expect(refusal(() => order.next('completed', action!)).code).toBe('CONFLICT');
    });

    it('is undefined for a state no action leads to', () => {
      expect(order.actionTo('active', 'draft')).toBeUndefined();
      expect(order.actionTo(undefined, 'draft')).toBeUndefined();
    });

    it('without a current state, names the first action that leads to the target', () => {
      expect(order.actionTo(undefined, 'active')).toBe('activate');
      expect(order.actionTo(undefined, 'entered_in_error')).toBe('enter_in_error');
    });
  });
});
