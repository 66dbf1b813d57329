import express from 'express';
import { buildSchema } from 'graphql';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { ExecutionResult, PreparedOperation } from '../shared/prepared-operation';
import { loadOperations } from './operations';
import { anyCase, defineRoutes, type RouteSpec } from './route';
import { compileRoutes, failingErrors, restRouter } from './router';

const schema = buildSchema(`
  enum DoorState { open closed locked }
  type Door { id: ID! state: DoorState! }
  input RingInput { decision: String }
  type Query { door(id: ID!): Door }
  type Mutation {
    openDoor(id: ID!, reason: String): Door!
    closeDoor(id: ID!, reason: String): Door!
    unlockDoor(id: ID!): Door!
    ring(id: ID!, input: RingInput!): Door!
  }
`);

const documents: Record<string, string> = {
  OpenDoor: 'mutation OpenDoor($id: ID!, $reason: String) { openDoor(id: $id, reason: $reason) { id state } }',
  CloseDoor: 'mutation CloseDoor($id: ID!, $reason: String) { closeDoor(id: $id, reason: $reason) { id state } }',
  UnlockDoor: 'mutation UnlockDoor($id: ID!) { unlockDoor(id: $id) { id state } }',
  Ring: 'mutation Ring($id: ID!, $input: RingInput!) { ring(id: $id, input: $input) { id state } }',
};

const ID = '3f1d8c9a-0000-4000-8000-000000000000';
const statusRoute: RouteSpec = {
  method: 'PATCH',
  path: '/doors/:id/state',
  operation: 'OpenDoor',
  operationId: 'UpdateDoorState',
  summary: 'Move a door',
  operationBy: {
    field: 'state',
    type: 'DoorState',
    // A locked door opens by being unlocked first.
    operations: { open: ['OpenDoor', 'UnlockDoor'], closed: 'CloseDoor' },
    refused: { locked: { code: 'VALIDATION_ERROR', message: 'cannot be set to locked here' } },
  },
};

describe('a route choosing its operation by a body field', () => {
  let server: Server;
  let dir: string;
  let base: string;
  const ran: { name: string; variables: Record<string, unknown> }[] = [];
  /** The door's state, as the graph would answer it. */
  let state = 'closed';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'router-test-'));
    for (const [name, source] of Object.entries(documents)) writeFileSync(join(dir, `${name}.graphql`), source);
    const ops = loadOperations(schema, dir);
    const routes = compileRoutes(
      [
        defineRoutes('Doors', [
          statusRoute,
          {
            method: 'POST',
            path: '/doors/:id/ring',
            operation: 'Ring',
            summary: 'Ring',
            synonyms: { approved: { to: 'decision', value: (v) => (v === true ? 'approve' : v === false ? 'reject' : v) } },
          },
          { method: 'POST', path: '/doors/:id/knock', operation: 'Ring', summary: 'Knock', synonyms: { decision: anyCase('decision') } },
        ]),
      ],
      schema,
      ops,
      { maxCost: 5000, maxDepth: 10 },
    );
    const gateway = {
      async execute(op: PreparedOperation, variables: Record<string, unknown>): Promise<ExecutionResult> {
        ran.push({ name: op.name, variables });
        const refuse = (from: string, action: string): ExecutionResult => ({
          errors: [{ message: `Cannot ${action} a door that is ${from}`, extensions: { code: 'CONFLICT', reason: 'ILLEGAL_TRANSITION' } }],
        });
        if (op.name === 'OpenDoor') {
          if (state !== 'closed') return refuse(state, 'open');
          state = 'open';
          return { data: { openDoor: { id: variables.id, state } } };
        }
        if (op.name === 'UnlockDoor') {
          if (state !== 'locked') return refuse(state, 'unlock');
          state = 'open';
          return { data: { unlockDoor: { id: variables.id, state } } };
        }
        if (op.name === 'Ring') return { data: { ring: { id: variables.id, state: (variables.input as { decision: string }).decision } } };
        state = 'closed';
        return { data: { closeDoor: { id: variables.id, state } } };
      },
    };
    const app = express();
    app.use(express.json());
    app.use((req, _res, next) => {
      req.viewer = { userId: 'u1' } as never;
      next();
    });
    app.use(restRouter(routes, gateway));
    server = app.listen(0);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const patch = async (body: unknown) => {
    const res = await fetch(`${base}/doors/${ID}/state`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  beforeEach(() => {
    ran.length = 0;
    state = 'closed';
  });

  it('runs the operation the value names, with the variables it declares', async () => {
    const res = await patch({ state: 'open', reason: 'air' });
    expect(res).toEqual({ status: 200, body: { success: true, data: { id: ID, state: 'open' } } });
    expect(ran).toEqual([{ name: 'OpenDoor', variables: { id: ID, reason: 'air' } }]);
    expect((await patch({ state: 'closed' })).body.data.state).toBe('closed');
  });

  it('names the field when it is missing or outside the enum, and answers a refused value', async () => {
    for (const body of [{}, { state: 'ajar' }, { state: 3 }]) {
      const res = await patch(body);
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['state']);
    }
    const locked = await patch({ state: 'locked' });
    expect(locked.status).toBe(400);
    expect(locked.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Invalid input: state cannot be set to locked here',
      details: [{ field: 'state', message: 'cannot be set to locked here' }],
    });
    expect(ran).toEqual([]);
  });

  it('tries the next operation when the machine refuses the first; when none fits, answers the first refusal', async () => {
    state = 'locked';
    expect((await patch({ state: 'open' })).body.data).toEqual({ id: ID, state: 'open' });
    expect(ran.map((r) => r.name)).toEqual(['OpenDoor', 'UnlockDoor']);
    ran.length = 0;
    const again = await patch({ state: 'open' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Cannot open a door that is open');
  });

  it('puts a synonym in the field it stands for, in its words; the field under its own name wins', async () => {
    const ring = (body: unknown) =>
      fetch(`${base}/doors/${ID}/ring`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(((await (await ring({ approved: false })).json()) as { data: { state: string } }).data.state).toBe('reject');
    expect(((await (await ring({ approved: true, decision: 'later' })).json()) as { data: { state: string } }).data.state).toBe('later');
  });

  it('takes a field under its own name in other words (any letter case), keeping the field', async () => {
    const knock = (body: unknown) =>
      fetch(`${base}/doors/${ID}/knock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(((await (await knock({ decision: 'APPROVE' })).json()) as { data: { state: string } }).data.state).toBe('approve');
    expect(((await (await knock({ decision: null })).json()) as { data: { state: string | null } }).data.state).toBeNull();
  });

  it('stops the start when a value of the enum neither runs an operation nor is refused', () => {
    const ops = loadOperations(schema, dir);
    const { refused: _, ...partial } = statusRoute.operationBy!;
    expect(() =>
      compileRoutes([defineRoutes('Doors', [{ ...statusRoute, operationBy: partial }])], schema, ops, { maxCost: 5000, maxDepth: 10 }),
    ).toThrow('PATCH /doors/:id/state: DoorState value locked neither runs an operation nor is refused');
  });
});

describe('which errors of an answer fail a REST request', () => {
  const forbidden = (path: (string | number)[]) => ({ message: 'no', path, extensions: { code: 'FORBIDDEN' } });
  const data = { admission: { id: ID, reason: null } };

  it('lets a refused field inside an answered root field go: the record answers with it null', () => {
    expect(failingErrors([forbidden(['admission', 'reason'])], data, 'admission')).toEqual([]);
    expect(failingErrors([forbidden(['admission', 'items', 0, 'notes'])], data, 'admission')).toEqual([]);
  });

  it('keeps every other error: the root refused or missing, other codes, a refusal that blanked the root', () => {
    const root = forbidden(['admission']);
    expect(failingErrors([root], { admission: null }, 'admission')).toEqual([root]);
    expect(failingErrors([forbidden(['admission', 'reason'])], { admission: null }, 'admission')).toHaveLength(1);
    const internal = { message: 'boom', path: ['admission', 'room'], extensions: { code: 'INTERNAL_ERROR' } };
    expect(failingErrors([forbidden(['admission', 'reason']), internal], data, 'admission')).toEqual([internal]);
    const pathless = { message: 'no', extensions: { code: 'FORBIDDEN' } };
    expect(failingErrors([pathless], data, 'admission')).toEqual([pathless]);
  });
});
