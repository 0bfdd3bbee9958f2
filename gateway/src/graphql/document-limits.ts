import { GraphQLError, type ValidationRule } from 'graphql';

/**
 * Tokens a document may hold (graphql-js's parser stops past them: 400). Parsing, validating and planning grow with the
 * document, on the gateway's one thread: 280,000 tokens (two filters of 20,000 values) took 1.4 s; 3,000 aliased
 * root fields joined across subgraphs (~45,000 tokens) 2.7 s. 5,000 tokens (~330 such fields) take ~0.3 s at most.
 */
export const MAX_DOCUMENT_TOKENS = 5_000;

/** Lists a document may nest in its values: a filter nests `_and`/`_or` at most 12 deep (libs/query), with room over. */
export const MAX_LIST_NESTING = 16;

/**
 * A validation rule: list values nested more than MAX_LIST_NESTING deep are refused (400 GRAPHQL_VALIDATION). Apollo's
 * query planner takes time exponential in that nesting (~2× per level: 20 levels took 0.3 s of the gateway's one
 * thread, 500 levels forever), before any service sees the operation.
 */
export const listNestingLimit: ValidationRule = (context) => {
  let depth = 0;
  let reported = false;
  return {
    ListValue: {
      enter(node) {
        if (++depth <= MAX_LIST_NESTING || reported) return undefined;
        reported = true;
        context.reportError(new GraphQLError(`Lists are nested more than ${MAX_LIST_NESTING} deep.`, { nodes: node }));
        return false; // not deeper
      },
      leave() {
        depth--;
      },
    },
  };
};
