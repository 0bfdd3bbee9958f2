import type { Request, Response } from 'express';
import { getArgumentValues, getVariableValues, Kind, type FieldNode, type GraphQLField, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';

/** What every resolver receives (create-subgraph.ts' SubgraphContext). */
interface Context {
  req: Request;
  res: Response;
}

/**
 * A root query field that can answer as JSON text: given the field's arguments (coerced as graphql-js does, with
 * the operation's variables; read-only: a document without variables gives the same object every time, so what is
 * derived from it may be kept by it), the request's context, the field as the document selects it and its definition, the
 * JSON text of the field's value exactly as the field's resolvers and GraphQL's serialization would give it — or
 * undefined when it cannot write this selection (the compiled path and Apollo Server answer then). A thrown error
 * or a rejection is not answered here either: the resolvers run again on the other paths, which answer it.
 */
export type TextField = (args: Record<string, unknown>, context: Context, field: FieldNode, def: GraphQLField<unknown, unknown>) => Promise<string | undefined>;

/** An operation whose whole answer a TextField writes: `{"data":{"<key>":<its text>}}`. */
export interface TextOperation {
  run(context: Context, variables: Record<string, unknown> | null | undefined): Promise<string | undefined>;
}

/**
 * The TextOperation of a query operation that selects exactly one root field — named in `fields`, without
 * directives — or undefined. Made once per document (its nodes are kept by the caller's cache: a TextField may
 * key what it derives from the field node on that node).
 */
export function textOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fields: Readonly<Record<string, TextField>>,
): TextOperation | undefined {
  const selections = operation.selectionSet.selections;
  if (operation.operation !== 'query' || operation.directives?.length || selections.length !== 1) return undefined;
  const node = selections[0]!;
  if (node.kind !== Kind.FIELD || node.directives?.length || !Object.hasOwn(fields, node.name.value)) return undefined;
  const def = schema.getQueryType()?.getFields()[node.name.value];
  if (!def) return undefined;
  return new RootTextOperation(schema, operation, node, def, fields[node.name.value]!);
}

class RootTextOperation implements TextOperation {
  private readonly prefix: string;
  /** The arguments of a document without variables (the same every time). */
  private constantArgs?: Record<string, unknown>;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly operation: OperationDefinitionNode,
    private readonly node: FieldNode,
    private readonly def: GraphQLField<unknown, unknown>,
    private readonly field: TextField,
  ) {
    this.prefix = `{"data":{${JSON.stringify((node.alias ?? node.name).value)}:`;
  }

  async run(context: Context, variables: Record<string, unknown> | null | undefined): Promise<string | undefined> {
    const definitions = this.operation.variableDefinitions ?? [];
    let args: Record<string, unknown>;
    if (definitions.length) {
      const coerced = getVariableValues(this.schema, definitions, variables ?? {});
      if (coerced.errors) return undefined;
      args = getArgumentValues(this.def, this.node, coerced.coerced);
    } else args = this.constantArgs ??= Object.freeze(getArgumentValues(this.def, this.node, {}));
    const text = await this.field(args, context, this.node, this.def);
    return text === undefined ? undefined : `${this.prefix}${text}}}`;
  }
}
