import type { Request, Response } from 'express';
import { Kind, parse, validate, visit, type DocumentNode, type GraphQLSchema } from 'graphql';
import { operationFromDocument, Supergraph, type Schema } from '@apollo/federation-internals';
import { QueryPlanner } from '@apollo/query-planner';
import { AppError } from '@vellum/errors';
import { plainOperation } from '@vellum/subgraph';

/** What the path reads of a subgraph's answer (a fetch Response is one). */
export interface SubgraphAnswer {
  status: number;
  headers: { getSetCookie(): string[] };
  text(): Promise<string>;
}

/** A subgraph's fetch: the federation's fetcher (replicas, timeout, 503s) for one subgraph. */
export type SubgraphFetch = (url: string, init: RequestInit) => Promise<SubgraphAnswer>;

export interface SingleFetchOptions {
  supergraphSdl: string;
  /** Subgraph name → its fetch (the URL given is the supergraph's, which the fetch replaces by a replica's). */
  fetchers: Record<string, SubgraphFetch>;
  /** The headers the full path's `willSendRequest` sets on a subgraph request for this caller. */
  forwardHeaders(req: Request, headers: Headers): void;
  /** Which path an operation took (counted: the tests and the metrics tell the two apart). */
  onOperation?: (path: 'single_fetch' | 'planned') => void;
  /**
   * The subgraph could not be asked (down, no answer in time): the full path then answers with this failure
   * instead of asking again (one timeout, not two; the failure counted once, by the fetch that met it).
   */
  onFetchFailure?: (req: Request, error: unknown) => void;
}

/** Decisions kept per (operation name, query text); cleared when full (clients send few distinct documents). */
const MAX_DECISIONS = 1000;

/** The decision for one document: the subgraph that answers all of it alone, or undefined (the full path). */
interface Decision {
  service: string | undefined;
}

/**
 * The gateway's fast path for query operations whose query plan is one fetch from one subgraph (no entity fetch,
 * no `@requires`, no rewrites): the client's operation (query, variables, operation name) goes to that subgraph as
 * it is and the subgraph's answer goes back as it is — without Apollo Gateway's plan execution and result shaping,
 * nor the gateway's Apollo Server pipeline. Only a plain JSON POST is taken (`plainOperation`). The decision is made once per document: it must parse, validate
 * against the API schema (else the full path answers the same errors as before), select no introspection field
 * (`__schema`, `__type`: the gateway answers those from the API schema) and plan to a single query fetch. An
 * answer is passed on only when it is a 200 whose body starts with `{"data":` (Apollo writes `errors` first):
 * anything else — errors, a failed fetch, a 4xx/5xx — and the request takes the full path, which answers as before
 * (a failed fetch is not repeated there: see onFetchFailure).
 * Returns false when the full path must answer.
 */
export function singleFetchPath(o: SingleFetchOptions): (req: Request, res: Response) => Promise<boolean> {
  const supergraph = Supergraph.build(o.supergraphSdl);
  const apiSchema = supergraph.apiSchema();
  const graphqlSchema = apiSchema.toGraphQLJSSchema();
  const planner = new QueryPlanner(supergraph);
  const urls = Object.fromEntries(supergraph.subgraphsMetadata().map((s) => [s.name, s.url]));
  const decisions = new Map<string, Decision>();

  const decide = (query: string, operationName: string | undefined): Decision => {
    const key = `${operationName ?? ''}\n${query}`;
    let d = decisions.get(key);
    if (!d) {
      d = { service: singleFetchService(query, operationName, graphqlSchema, apiSchema, planner) };
      if (d.service && !o.fetchers[d.service]) d.service = undefined;
      if (decisions.size >= MAX_DECISIONS) decisions.clear();
      decisions.set(key, d);
    }
    return d;
  };

  return async (req, res) => {
    const op = plainOperation(req.method, req.headers, req.body);
    const service = op && decide(op.query, op.operationName ?? undefined).service;
    if (!op || !service) {
      o.onOperation?.('planned');
      return false;
    }
    const headers = new Headers();
    o.forwardHeaders(req, headers);
    headers.set('content-type', 'application/json');
    const { query, variables, operationName } = op;
    let answer: SubgraphAnswer;
    let text: string;
    try {
      answer = await o.fetchers[service]!(urls[service]!, { method: 'POST', headers, body: JSON.stringify({ query, variables, operationName }) });
      text = await answer.text();
    } catch (e) {
      o.onOperation?.('planned');
      if (e instanceof AppError) o.onFetchFailure?.(req, e); // the fetch's 503-style errors (anything else: asked again)
      return false; // the full path answers the failure as before (its 503-style error)
    }
    if (answer.status !== 200 || !text.startsWith('{"data":')) {
      o.onOperation?.('planned');
      return false;
    }
    o.onOperation?.('single_fetch');
    const cookies = answer.headers.getSetCookie();
    if (cookies.length) res.append('Set-Cookie', cookies);
    res.status(200);
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('cache-control', 'no-store');
    res.send(text);
    return true;
  };
}

/** The subgraph that answers this operation alone (see singleFetchPath), or undefined. */
function singleFetchService(
  query: string,
  operationName: string | undefined,
  graphqlSchema: GraphQLSchema,
  apiSchema: Schema,
  planner: QueryPlanner,
): string | undefined {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch {
    return undefined;
  }
  if (validate(graphqlSchema, document).length || selectsIntrospection(document)) return undefined;
  try {
    const plan = planner.buildQueryPlan(operationFromDocument(apiSchema, document, { operationName }));
    const node = plan.node;
    if (node?.kind !== 'Fetch' || node.operationKind !== 'query' || node.requires?.length || node.hasDefers) return undefined;
    if (node.inputRewrites?.length || node.outputRewrites?.length || node.contextRewrites?.length) return undefined;
    return node.serviceName;
  } catch {
    return undefined;
  }
}

/** A field of the introspection system other than `__typename` (which every subgraph answers the same). */
function selectsIntrospection(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.FIELD](node) {
      if (node.name.value.startsWith('__') && node.name.value !== '__typename') found = true;
    },
  });
  return found;
}
