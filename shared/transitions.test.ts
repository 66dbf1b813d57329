import 'reflect-metadata';
import { graphql, type GraphQLSchema } from 'graphql';
import { buildSchema, Field, ID, ObjectType, Query, Resolver } from 'type-graphql';
import { stateMachine } from './state-machine';
import { transitionResolver } from './transitions';

type DoorState = 'open' | 'closed' | 'locked';

@ObjectType({ description: 'A door' })
class Door {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  state!: DoorState;

  @Field(() => String, { nullable: true })
  reason?: string | null;
}

const DOOR = stateMachine<DoorState, 'open' | 'close' | 'lock'>('door', {
  open: { from: ['closed'], to: 'open' },
  close: { from: ['open'], to: 'closed' },
  lock: { from: ['closed'], to: 'locked' },
});

@Resolver()
class DoorQueries {
  @Query(() => Door, { nullable: true })
  door(): Door | null {
    return null;
  }
}

describe('transitionResolver', () => {
  let schema: GraphQLSchema;
  const door: Door = { id: 'd1', state: 'closed' };
  const calls: string[] = [];

  beforeAll(async () => {
    const DoorTransitions = transitionResolver({
      type: () => Door,
      machine: DOOR,
      run: async (_ctx, args, action) => {
        calls.push(action);
        door.state = DOOR.next(door.state, action);
        door.reason = args.reason ?? null;
        return door;
      },
      mutations: {
        open: { name: 'openDoor', description: 'Open a closed door' },
        close: { name: 'closeDoor', description: 'Close an open door' },
      },
    });
    schema = await buildSchema({ resolvers: [DoorQueries, DoorTransitions], validate: false });
  });

  it('writes one described mutation per action named, with the id and a reason', () => {
    const fields = schema.getMutationType()!.getFields();
    expect(Object.keys(fields).sort()).toEqual(['closeDoor', 'openDoor']);
    expect(fields.openDoor.description).toBe('Open a closed door');
    expect(fields.openDoor.args.map((a) => `${a.name}: ${String(a.type)}`)).toEqual(['id: ID!', 'reason: String']);
    expect(String(fields.openDoor.type)).toBe('Door!');
  });

  it('runs the one service method with the action; the machine refuses an illegal one', async () => {
    const opened = await graphql({ schema, source: 'mutation { openDoor(id: "d1", reason: "air") { state reason } }', contextValue: {} });
    expect(opened).toEqual({ data: { openDoor: { state: 'open', reason: 'air' } } });
    const again = await graphql({ schema, source: 'mutation { openDoor(id: "d1") { state } }', contextValue: {} });
    expect(again.errors?.[0].message).toBe('Cannot open a door that is open');
    expect(calls).toEqual(['open', 'open']);
  });

  it('refuses a mutation for an action the machine does not have', () => {
    expect(() =>
      transitionResolver({
        type: () => Door,
        machine: DOOR,
        run: async () => door,
        mutations: { smash: { name: 'smashDoor', description: 'No' } } as never,
      }),
    ).toThrow('smashDoor: door has no action smash');
  });
});
