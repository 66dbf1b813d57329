import {
  GraphQLError,
  Kind,
  Lexer,
  Source,
  TokenKind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationRule,
} from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { errors, type AppError } from './errors';
import { DEFAULT_PAGE_SIZE } from './model';

/**
 * Limits that protect the whole federated graph from abusive queries, enforced once at the gateway:
 * - size: tokens and nesting of the source, measured before it is parsed;
 * - depth: nesting of selections (introspection fields excluded), as a validation rule;
 * - cost: every field costs 1; a field taking `limit` (or `first`/`last`) multiplies what it selects by it.
 */

/** Most tokens an operation may have: the largest checked-in one has about 1,000. Also the parser's `maxTokens`. */
export const MAX_TOKENS = 10_000;
/** Deepest nesting of `{` and `[` handed to the parser, which recurses and overflows the stack near 2,000 levels. */
const MAX_NESTING = 200;

const depthError = (maxDepth: number, name = '') => `'${name}' exceeds maximum operation depth of ${maxDepth}`;

/**
 * Refuses, before parsing, a source too large to parse and validate quickly (tens of thousands of aliases) or
 * nested deeper than any allowed operation. Syntax errors are left to the parser, which reports them with a location.
 */
export function checkSource(source: string, maxDepth: number): AppError | undefined {
  const lexer = new Lexer(new Source(source));
  let tokens = 0;
  let nesting = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (++tokens > MAX_TOKENS) {
        return errors.queryTooComplex(`Operation has more than ${MAX_TOKENS} tokens; send a smaller one`, 'tokens', MAX_TOKENS, tokens);
      }
      if (token.kind === TokenKind.BRACE_L || token.kind === TokenKind.BRACKET_L) nesting++;
      else if (token.kind === TokenKind.BRACE_R || token.kind === TokenKind.BRACKET_R) nesting--;
      // Brackets and braces nested this far hold at least this many levels of selections (the outermost is the
      // operation's own): the source is refused before it reaches the recursive parser.
      if (nesting > MAX_NESTING) return errors.queryTooDeep(depthError(maxDepth), maxDepth, nesting - 1);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * Selection depth as a validation rule, computed before the other rules run so its error comes first. Each fragment
 * is measured once (a cycle is NoFragmentCycles' error, not a stack overflow) and unknown fragments are skipped
 * (KnownFragmentNames reports them). The error is QUERY_TOO_DEEP with `limit` and `actual` in its extensions; the
 * source was already bounded by `checkSource`, so measuring it whole is cheap.
 */
export function depthRule(maxDepth: number): ValidationRule {
  return (context) => {
    const definitions = context.getDocument().definitions;
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    const fragmentDepths = new Map<string, number>();
    const depthOf = (set: SelectionSetNode): number => {
      let deepest = 0;
      for (const s of set.selections) {
        if (s.kind === Kind.FIELD) {
          if (!s.selectionSet || s.name.value.startsWith('__')) continue;
          deepest = Math.max(deepest, 1 + depthOf(s.selectionSet));
        } else if (s.kind === Kind.INLINE_FRAGMENT) {
          deepest = Math.max(deepest, depthOf(s.selectionSet));
        } else {
          deepest = Math.max(deepest, fragmentDepth(s.name.value));
        }
      }
      return deepest;
    };
    const fragmentDepth = (name: string): number => {
      const fragment = fragments.get(name);
      if (!fragment) return 0;
      const known = fragmentDepths.get(name);
      if (known !== undefined) return known;
      fragmentDepths.set(name, 0);
      const depth = depthOf(fragment.selectionSet);
      fragmentDepths.set(name, depth);
      return depth;
    };
    for (const d of definitions) {
      if (d.kind !== Kind.OPERATION_DEFINITION) continue;
      const actual = depthOf(d.selectionSet);
      if (actual > maxDepth) {
        context.reportError(
          new GraphQLError(depthError(maxDepth, d.name?.value), {
            nodes: d,
            extensions: { code: 'QUERY_TOO_DEEP', limit: maxDepth, actual },
          }),
        );
      }
    }
    return {};
  };
}

const pageSizeEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  if (!('limit' in args) && !('first' in args) && !('last' in args)) return undefined;
  const size = Number(args.limit ?? args.first ?? args.last ?? DEFAULT_PAGE_SIZE);
  return 1 + childComplexity * (Number.isFinite(size) && size > 0 ? size : DEFAULT_PAGE_SIZE);
};

/**
 * What a root field costs beyond what it selects: each is at least one fetch from a subgraph (and a query plan), so a
 * field that selects a single id is not as cheap as that id. Without it, 2,400 aliases of `me { id }` priced at 4,800
 * passed the limit and held the event loop for seconds.
 */
export const ROOT_FIELD_COST = 25;

/** Most aliases an operation may use: enough for any screen, too few to multiply one field into thousands of calls. */
export const MAX_ALIASES = 100;

const rootFieldEstimator =
  (schema: GraphQLSchema): ComplexityEstimator =>
  (options) => {
    if (options.type !== schema.getQueryType() && options.type !== schema.getMutationType()) return undefined;
    return ROOT_FIELD_COST + (pageSizeEstimator(options) ?? 1 + options.childComplexity);
  };

export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  operationName?: string,
): number {
  return getComplexity({
    schema,
    query: document,
    variables,
    operationName,
    estimators: [rootFieldEstimator(schema), pageSizeEstimator, simpleEstimator({ defaultComplexity: 1 })],
  });
}

/** Refuses an operation with more than MAX_ALIASES aliases in its document (QUERY_TOO_COMPLEX, `limit`, `actual`). */
export function aliasRule(maxAliases = MAX_ALIASES): ValidationRule {
  return (context) => {
    let aliases = 0;
    return {
      Field(node) {
        if (node.alias) aliases++;
      },
      Document: {
        leave() {
          if (aliases <= maxAliases) return;
          context.reportError(
            new GraphQLError(`Operation uses more than ${maxAliases} aliases; ask for fewer`, {
              extensions: { code: 'QUERY_TOO_COMPLEX', measure: 'aliases', limit: maxAliases, actual: aliases },
            }),
          );
        },
      },
    };
  };
}
