import 'reflect-metadata';
import { checkRequirement, rootRequirements } from './requires-permission';
import type { Viewer } from './viewer';

const sdl = (directives: string) => `
  directive @requiresPermission(name: String!, organization: String, hiddenAs: String) on FIELD_DEFINITION
  type Query { open: Int ${directives} }
  type Mutation {
    unlink(id: ID!): Int @requiresPermission(name: "mpi:manage")
    createRoom(organizationId: ID!): Int @requiresPermission(name: "rooms:write", organization: "organizationId", hiddenAs: "Room")
  }
  type Room { name: String @requiresPermission(name: "mpi:manage") }
`;

describe('rootRequirements', () => {
  it('reads platform and organization requirements of root fields, and nothing else', () => {
    expect([...rootRequirements(sdl('')).entries()]).toEqual([
      ['Mutation.unlink', { kind: 'platform', permission: 'mpi:manage' }],
      ['Mutation.createRoom', { kind: 'organization', permission: 'rooms:write', argument: 'organizationId', hiddenAs: 'Room' }],
    ]);
  });

  it('stops at a permission the tables do not know, or one of the wrong kind', () => {
    expect(() => rootRequirements(sdl('@requiresPermission(name: "mpi:everything")'))).toThrow(/Query.open: .*no platform permission/);
    expect(() => rootRequirements(sdl('@requiresPermission(name: "rooms:write")'))).toThrow(/Query.open/);
    expect(() => rootRequirements(sdl('@requiresPermission(name: "mpi:manage", organization: "id")'))).toThrow(
      /no organization permission/,
    );
  });
});

describe('checkRequirement', () => {
  const user = (roles: string[], memberships: { organizationId: string; role: string }[] = []) =>
    ({ userId: 'u', roles, memberships: memberships.map((m) => ({ ...m, roles: [m.role] })) }) as unknown as Viewer;
  const code = (fn: () => void) => {
    try {
      fn();
      return 'passed';
    } catch (err) {
      return (err as { extensions: { code: string } }).extensions.code;
    }
  };
  const platform = { kind: 'platform', permission: 'mpi:manage' } as const;
  const org = { kind: 'organization', permission: 'rooms:write', argument: 'organizationId', hiddenAs: 'Room' } as const;

  it('answers as the permissions do: 401, 403, 404 for an outsider, through for those who hold it', () => {
    expect(code(() => checkRequirement(platform, undefined, () => undefined))).toBe('UNAUTHORIZED');
    expect(code(() => checkRequirement(platform, user(['PATIENT']), () => undefined))).toBe('FORBIDDEN');
    expect(code(() => checkRequirement(platform, user(['APP:ADMIN']), () => undefined))).toBe('passed');
    const nurse = user([], [{ organizationId: 'o1', role: 'ORG:NURSE' }]);
    expect(code(() => checkRequirement(org, nurse, () => 'o1'))).toBe('FORBIDDEN');
    expect(code(() => checkRequirement(org, nurse, () => 'o2'))).toBe('NOT_FOUND');
    expect(code(() => checkRequirement(org, user([], [{ organizationId: 'o1', role: 'ORG:ADMIN' }]), () => 'o1'))).toBe('passed');
    // No organization named: the input's problem, which the service names.
    expect(code(() => checkRequirement(org, nurse, () => undefined))).toBe('passed');
  });
});
