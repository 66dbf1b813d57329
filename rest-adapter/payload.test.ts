import { buildSchema, parse, print, type OperationDefinitionNode } from 'graphql';
import type { Response } from 'express';
import type { OperationDocument } from './operations';
import { defineRoutes } from './route';
import { answer, compileRoutes } from './router';

/** A route whose mutation answers a payload (docs/graphql.md, "Expected failures"): REST sees the record or the old error. */

const schema = buildSchema(`
  enum UserErrorCode { INVALID STALE_VERSION BUSINESS_RULE }
  type UserError { field: [String!] message: String! code: UserErrorCode! }
  type Note { id: ID! chiefComplaint: String version: Int! }
  type UpdateNotePayload { note: Note userErrors: [UserError!]! }
  input UpdateNoteInput { chiefComplaint: String expectedVersion: Int }
  type Query { note(id: ID!): Note }
  type Mutation { updateNote(id: ID!, input: UpdateNoteInput!): UpdateNotePayload! }
`);

function operation(source: string): OperationDocument {
  const document = parse(source);
  const op = document.definitions[0] as OperationDefinitionNode;
  return { name: op.name!.value, file: `${op.name!.value}.graphql`, source: print(document), document, operation: op, queryHash: 'x' };
}

const ops = new Map(
  [
    operation(`mutation UpdateNote($id: ID!, $input: UpdateNoteInput!) {
      updateNote(id: $id, input: $input) { note { id chiefComplaint version } userErrors { field message code } }
    }`),
    operation(`mutation UpdateNoteBlind($id: ID!, $input: UpdateNoteInput!) {
      updateNote(id: $id, input: $input) { note { id } }
    }`),
  ].map((o) => [o.name, o]),
);
const limits = { maxCost: 5000, maxDepth: 10 };
const [route] = compileRoutes(
  [defineRoutes('Notes', [{ method: 'PATCH', path: '/notes/:id', operation: 'UpdateNote', summary: 'Update a note' }])],
  schema,
  ops,
  limits,
);

function send(data: unknown): { status: number; body: unknown } {
  const out = { status: 0, body: undefined as unknown };
  const res = {
    status(code: number) {
      out.status = code;
      return res;
    },
    json(body: unknown) {
      out.body = body;
    },
    setHeader() {},
  };
  answer(route, res as unknown as Response, { data: { updateNote: data } });
  return out;
}

describe('a route answering a payload', () => {
  it("takes the record as its data, with the record's type and shape", () => {
    expect(route.payload).toBe('note');
    expect(route.rootType?.name).toBe('Note');
    expect(send({ note: { id: 'n1', chiefComplaint: 'Cough', version: 2 }, userErrors: [] })).toEqual({
      status: 200,
      body: { success: true, data: { id: 'n1', chief_complaint: 'Cough', version: 2 } },
    });
  });

  it('answers INVALID user errors as the 400 VALIDATION_ERROR of before, fields in snake_case without `input`', () => {
    const res = send({
      note: null,
      userErrors: [
        { field: ['input', 'chiefComplaint'], message: 'must be at most 2000 characters', code: 'INVALID' },
        { field: ['input', 'expectedVersion'], message: 'must be at least 1', code: 'INVALID' },
      ],
    });
    expect(res).toEqual({
      status: 400,
      body: {
        success: false,
        error: {
          code: 'VALIDATION_ERROR',
          message: 'Invalid input: chief_complaint must be at most 2000 characters; expected_version must be at least 1',
          details: [
            { field: 'chief_complaint', message: 'must be at most 2000 characters' },
            { field: 'expected_version', message: 'must be at least 1' },
          ],
        },
      },
    });
  });

  it('answers any other user error as the 409 CONFLICT of before, with its message', () => {
    const message = 'The note is at version 3, not 2; reload it and try again';
    expect(send({ note: null, userErrors: [{ field: null, message, code: 'STALE_VERSION' }] })).toEqual({
      status: 409,
      body: { success: false, error: { code: 'CONFLICT', message } },
    });
  });

  it('refuses, at start, an operation that does not ask for the user errors', () => {
    expect(() =>
      compileRoutes(
        [defineRoutes('Notes', [{ method: 'PATCH', path: '/notes/:id', operation: 'UpdateNoteBlind', summary: 'Update a note' }])],
        schema,
        ops,
        limits,
      ),
    ).toThrow(/must select updateNote's note and userErrors/);
  });
});
