import { Kind, parse, type ConstDirectiveNode } from 'graphql';
import { Directive, UseMiddleware, type MiddlewareFn } from 'type-graphql';
import type { SubgraphContext } from './context';
import {
  PERMISSIONS,
  PLATFORM_PERMISSIONS,
  requireOrgPermission,
  requirePlatformPermission,
  type Permission,
  type PlatformPermission,
} from './permissions';

/**
 * A root field restricted by role says so on its resolver, once:
 * - `@RequiresPlatformPermission('mpi:manage')`: only the platform roles holding it (the master patient index, the
 *   drug interaction knowledge, the catalogue sync, ...);
 * - `@RequiresOrgPermission('rooms:write')`: the organization roles holding it in the organization an argument
 *   names (`organizationId` unless told otherwise), as `requireOrgPermission` answers: 404 naming `hiddenAs` for an
 *   outsider, 403 for a member whose role lacks it.
 *
 * That does two things.
 * - The subgraph checks the permission before anything else of the call, its arguments' class-validator rules
 *   included: a caller without the role learns nothing from validation messages (401 without credentials).
 * - The field carries the directive `@requiresPermission(...)`, which composition keeps in the supergraph
 *   (`@composeDirective`). The edge reads it there (`rootRequirements`): the REST adapter checks it before it reads
 *   the request's input, and the OpenAPI document names it on each route. Neither holds a list of its own.
 *
 * The service keeps its own check: the declaration puts it first, it does not replace the rules next to the data.
 */
export const REQUIRES_PERMISSION = 'requiresPermission';

/**
 * What a subgraph's SDL needs for the directive: its definition, and the link under which composition keeps it.
 * The URL only names the definition (composition wants one, `…/<name>/v<major>.<minor>`); nothing fetches it.
 */
export const REQUIRES_PERMISSION_SDL = `
  extend schema
    @link(url: "https://clinical-care-platform.example/permissions/v1.0", import: ["@${REQUIRES_PERMISSION}"])
    @composeDirective(name: "@${REQUIRES_PERMISSION}")
  directive @${REQUIRES_PERMISSION}(name: String!, organization: String, hiddenAs: String) on FIELD_DEFINITION
`;

/** What a root field declares: a platform permission, or an organization permission in the organization an argument names. */
export type RootRequirement =
  | { kind: 'platform'; permission: PlatformPermission }
  | { kind: 'organization'; permission: Permission; argument: string; hiddenAs: string };

/** Root field (`Query.patientMatches`, `Mutation.unlinkPatients`) → what it requires. */
export type RootRequirements = ReadonlyMap<string, RootRequirement>;

/** The check a requirement stands for, on the caller and the call's arguments (throws as the permissions do). */
export function checkRequirement(
  requirement: RootRequirement,
  viewer: SubgraphContext['viewer'],
  organizationOf: (argument: string) => unknown,
): void {
  if (requirement.kind === 'platform') {
    requirePlatformPermission(viewer, requirement.permission);
    return;
  }
  const organizationId = organizationOf(requirement.argument);
  // An argument left out is the input's problem: the service names it.
  if (typeof organizationId !== 'string') return;
  requireOrgPermission(viewer, organizationId, requirement.permission, requirement.hiddenAs);
}

function requires(requirement: RootRequirement): MethodDecorator {
  const args = [
    `name: ${JSON.stringify(requirement.permission)}`,
    ...(requirement.kind === 'organization'
      ? [`organization: ${JSON.stringify(requirement.argument)}`, `hiddenAs: ${JSON.stringify(requirement.hiddenAs)}`]
      : []),
  ];
  const directive = Directive(`@${REQUIRES_PERMISSION}(${args.join(', ')})`);
  const check: MiddlewareFn = ({ context, args: values }, next) => {
    checkRequirement(requirement, (context as Partial<SubgraphContext> | undefined)?.viewer, (name) => values[name]);
    return next();
  };
  const middleware = UseMiddleware(check);
  return (target, key, descriptor) => {
    directive(target, key, descriptor);
    middleware(target, key, descriptor);
  };
}

/** Marks a resolver method (a root query or mutation) as needing a platform permission, checked before its arguments. */
export function RequiresPlatformPermission(permission: PlatformPermission): MethodDecorator {
  return requires({ kind: 'platform', permission });
}

/**
 * Marks a resolver method (a root query or mutation) as needing an organization permission in the organization its
 * `organization` argument names (an `ID` argument of the field itself), checked before its arguments are validated.
 * `hiddenAs` is what an outsider is told was not found, as the service tells them.
 */
export function RequiresOrgPermission(
  permission: Permission,
  { organization = 'organizationId', hiddenAs = 'Organization' }: { organization?: string; hiddenAs?: string } = {},
): MethodDecorator {
  return requires({ kind: 'organization', permission, argument: organization, hiddenAs });
}

/**
 * The root fields of a schema's SDL (the supergraph) that declare a requirement. A permission the tables do not
 * know stops the start: the SDL and the tables come from the same code, so it means a stale supergraph.
 */
export function rootRequirements(sdl: string): RootRequirements {
  const found = new Map<string, RootRequirement>();
  for (const definition of parse(sdl).definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    const type = definition.name.value;
    if (type !== 'Query' && type !== 'Mutation') continue;
    for (const field of definition.fields ?? []) {
      const directive = field.directives?.find((d) => d.name.value === REQUIRES_PERMISSION);
      if (!directive) continue;
      const coordinate = `${type}.${field.name.value}`;
      const [name, organization, hiddenAs] = ['name', 'organization', 'hiddenAs'].map((a) => stringArgument(directive, a));
      if (organization && name && Object.prototype.hasOwnProperty.call(PERMISSIONS, name)) {
        found.set(coordinate, {
          kind: 'organization',
          permission: name as Permission,
          argument: organization,
          hiddenAs: hiddenAs ?? 'Organization',
        });
      } else if (!organization && name && Object.prototype.hasOwnProperty.call(PLATFORM_PERMISSIONS, name)) {
        found.set(coordinate, { kind: 'platform', permission: name as PlatformPermission });
      } else {
        throw new Error(
          `${coordinate}: @${REQUIRES_PERMISSION} names no ${organization ? 'organization' : 'platform'} permission (${name})`,
        );
      }
    }
  }
  return found;
}

function stringArgument(directive: ConstDirectiveNode, name: string): string | undefined {
  const value = directive.arguments?.find((a) => a.name.value === name)?.value;
  return value?.kind === Kind.STRING ? value.value : undefined;
}
