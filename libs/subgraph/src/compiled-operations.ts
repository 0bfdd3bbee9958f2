import type { Request, Response } from 'express';
import { encodeBody } from '@vellum/http';
import {
  getNamedType,
  getOperationAST,
  isInputObjectType,
  Kind,
  parse,
  typeFromAST,
  validate,
  visit,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { stringifyJson } from '@vellum/http';
import { plainOperation } from './plain-operation';
import { textOperation, type TextField, type TextOperation } from './text-fields';

/** Compiled documents kept per (operation name, query text); cleared when full (clients send few distinct ones). */
const MAX_DOCUMENTS = 500;

/** How many operations each path answered (tests and benchmarks read it). */
export interface OperationCounts {
  /** Written as JSON text by a TextField (text-fields.ts). */
  text: number;
  compiled: number;
  apollo: number;
}

/**
 * A document as this path runs it: written as text first when a TextField can (text-fields.ts), then compiled
 * (`query`: absent when graphql-jit cannot take it — Apollo Server answers what the text path leaves).
 */
interface Compiled {
  query?: CompiledQuery;
  text?: TextOperation;
}

/**
 * A subgraph's light path for query operations: each document is parsed, validated and compiled (graphql-jit) once
 * per (query text, operation name), then run with the same context (`{ req, res }`) and resolvers as Apollo
 * Server would, and answered as Apollo Server answers a success (200, `application/json; charset=utf-8`,
 * `Cache-Control: no-store`, the body through the same `stringifyJson`) — without Apollo's request pipeline (a
 * sha256 of the query, plugins, header maps) nor graphql-js's field-by-field execution. Only a plain JSON POST
 * (plainOperation) of a query that validates, selects no introspection or federation field (`__schema`, `__type`,
 * `_entities`, `_service`), has no variable of an input object type and runs without errors is answered here; everything else — a mutation, a validation
 * error, a variable that does not coerce, a resolver's error — is left to Apollo Server (returns false), which
 * answers it exactly as before (running the query's resolvers again, once, on an error).
 * An operation of one root field in `textFields` is first asked of it (its whole answer as JSON text, no objects;
 * input-object variables too); when it cannot write it, the compiled query runs as above.
 */
export function compiledOperations(
  schema: GraphQLSchema,
  counts: OperationCounts,
  textFields: Readonly<Record<string, TextField>> = {},
): (req: Request, res: Response) => Promise<boolean> {
  const documents = new Map<string, Compiled | undefined>();
  const compiled = (query: string, operationName: string | undefined): Compiled | undefined => {
    const key = `${operationName ?? ''}\n${query}`;
    if (documents.has(key)) return documents.get(key);
    const c = compile(schema, query, operationName, textFields);
    if (documents.size >= MAX_DOCUMENTS) documents.clear();
    documents.set(key, c);
    return c;
  };
  return async (req, res) => {
    const op = plainOperation(req.method, req.headers, req.body);
    const c = op && compiled(op.query, op.operationName ?? undefined);
    if (!c) {
      counts.apollo++;
      return false;
    }
    const context = { req, res };
    if (c.text) {
      const text = await c.text.run(context, op.variables).catch(() => undefined);
      if (text !== undefined && !res.headersSent) {
        counts.text++;
        return answer(res, text);
      }
    }
    const result = c.query && (await c.query.query(undefined, context, op.variables ?? {}));
    if (!result || result.errors?.length || res.headersSent) {
      counts.apollo++;
      return false;
    }
    counts.compiled++;
    return answer(res, stringifyJson({ data: result.data }));
  };
}

/** node's API (the fast lane's response is not express's): what express's res.send writes for this text. */
function answer(res: Response, text: string): true {
  res.statusCode = 200;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  const body = encodeBody(res, text);
  res.setHeader('content-length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  res.end(body);
  return true;
}

function compile(
  schema: GraphQLSchema,
  query: string,
  operationName: string | undefined,
  textFields: Readonly<Record<string, TextField>>,
): Compiled | undefined {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch {
    return undefined;
  }
  if (validate(schema, document).length) return undefined;
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== 'query' || selectsSpecialFields(document)) return undefined;
  const text = textOperation(schema, operation, textFields);
  // graphql-js coerces the text path's variables: input objects too
  if (hasInputObjectVariable(schema, operation)) return text && { text };
  try {
    const c = compileQuery(schema, document, operationName);
    return isCompiledQuery(c) ? { query: c, text } : text && { text };
  } catch {
    return text && { text };
  }
}

/**
 * A variable of an input object type: graphql-jit compiles a coercion of it that never ends when the type is
 * recursive (`vellum_revisions_filter` has `_and`, `_or`, `parent`: the compile ran out of memory). Such
 * operations are Apollo Server's; input objects written in the document itself compile fine.
 */
function hasInputObjectVariable(schema: GraphQLSchema, operation: OperationDefinitionNode): boolean {
  return (operation.variableDefinitions ?? []).some((v) => {
    const type = typeFromAST(schema, v.type as never);
    return !type || isInputObjectType(getNamedType(type));
  });
}

/** Introspection (other than `__typename`) or the federation's own fields: Apollo Server answers those. */
function selectsSpecialFields(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.FIELD](node) {
      const name = node.name.value;
      if ((name.startsWith('__') && name !== '__typename') || name === '_entities' || name === '_service') found = true;
    },
  });
  return found;
}
