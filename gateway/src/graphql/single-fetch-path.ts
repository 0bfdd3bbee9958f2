import { Kind, parse, specifiedRules, validate, visit, type DocumentNode, type GraphQLSchema } from 'graphql';
import { listNestingLimit, MAX_DOCUMENT_TOKENS } from './document-limits';
import { operationFromDocument, Supergraph, type Schema } from '@apollo/federation-internals';
import { QueryPlanner } from '@apollo/query-planner';
import { AppError } from '@vellum/errors';
import type { PlainOperation } from '@vellum/subgraph';

/** What the path reads of a subgraph's answer (a fetch Response is one). */
export interface SubgraphAnswer {
  status: number;
  headers: { getSetCookie(): string[] };
  text(): Promise<string>;
  /**
   * The body as an in-process answer holds it, its text or its bytes: passed on as it is, never decoded nor encoded
   * here (not `bytes`: a fetch Response has a method of that name).
   */
  rawBody?: string | Buffer;
}

/**
 * A subgraph request: fetch's init with the headers as a plain object (lower-case names) and `json`, the value the
 * body is the JSON text of — a subgraph in this process takes it as its parsed body (federation.ts: fetchLocal).
 */
export interface SubgraphRequest {
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  json: object;
}

/** A subgraph's fetch: the federation's fetcher (replicas, timeout, 503s) for one subgraph. */
type SubgraphFetch = (url: string, init: SubgraphRequest) => Promise<SubgraphAnswer>;

interface SingleFetchOptions {
  supergraphSdl: string;
  /** Subgraph name → its fetch (the URL given is the supergraph's, which the fetch replaces by a replica's). */
  fetchers: Record<string, SubgraphFetch>;
  /** Which path an operation took (counted: the tests and the metrics tell the two apart). */
  onOperation?: (path: 'single_fetch' | 'planned') => void;
}

/** What goes back to the client: the subgraph's body as it is (its text, or its bytes), and its cookies. */
export interface SingleFetchAnswer {
  body: string | Buffer;
  cookies: string[];
}

const DATA_START = '{"data":';
const DATA_START_BYTES = Buffer.from(DATA_START);

/** An answer with data and no errors: Apollo and the compiled path write `errors` first. */
const startsWithData = (body: string | Buffer) =>
  typeof body === 'string' ? body.startsWith(DATA_START) : DATA_START_BYTES.equals(body.subarray(0, DATA_START_BYTES.length));

/**
 * The single-fetch path of one operation (`op`: a plain JSON POST, plainOperation; undefined: not one) with the
 * headers the full path's `willSendRequest` would set for this caller: the subgraph's answer to pass on, or
 * undefined when the full path must answer. `failed` hears of a subgraph that could not be asked (down, no answer
 * in time): the full path then answers with that failure instead of asking again (one timeout, not two; the
 * failure counted once, by the fetch that met it).
 */
export type SingleFetch = (
  op: PlainOperation | undefined,
  headers: Record<string, string>,
  failed: (error: unknown) => void,
) => Promise<SingleFetchAnswer | undefined>;

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
 * (a failed fetch is not repeated there: see SingleFetch's `failed`). The caller writes the answer (200,
 * `application/json; charset=utf-8`, `Cache-Control: no-store`, the cookies): the express stack and the front door.
 */
export function singleFetchPath(o: SingleFetchOptions): SingleFetch {
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

  return async (op, headers, failed) => {
    const service = op && decide(op.query, op.operationName ?? undefined).service;
    if (!op || !service) {
      o.onOperation?.('planned');
      return undefined;
    }
    headers['content-type'] = 'application/json';
    // what JSON.parse makes of the body: the members that are there (variables, operationName may be absent)
    const { query, variables, operationName } = op;
    const json: Record<string, unknown> = { query };
    if (variables !== undefined) json.variables = variables;
    if (operationName !== undefined) json.operationName = operationName;
    let answer: SubgraphAnswer;
    let body: string | Buffer;
    try {
      answer = await o.fetchers[service]!(urls[service]!, { method: 'POST', headers, body: JSON.stringify(json), json });
      body = answer.rawBody ?? (await answer.text());
    } catch (e) {
      o.onOperation?.('planned');
      if (e instanceof AppError) failed(e); // the fetch's 503-style errors (anything else: asked again)
      return undefined; // the full path answers the failure as before (its 503-style error)
    }
    if (answer.status !== 200 || !startsWithData(body)) {
      o.onOperation?.('planned');
      return undefined;
    }
    o.onOperation?.('single_fetch');
    return { body, cookies: answer.headers.getSetCookie() };
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
    document = parse(query, { maxTokens: MAX_DOCUMENT_TOKENS });
  } catch {
    return undefined;
  }
  // the full path answers what does not validate (its rules are these and listNestingLimit, checked before planning)
  if (validate(graphqlSchema, document, [...specifiedRules, listNestingLimit]).length || selectsIntrospection(document)) return undefined;
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
