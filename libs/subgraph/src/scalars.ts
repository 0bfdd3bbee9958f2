import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/** A GraphQL literal as its JSON value (variables applied). */
export const literalValue = (node: ValueNode, variables?: Record<string, unknown> | null): unknown => {
  switch (node.kind) {
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.STRING:
    case Kind.ENUM:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((v) => literalValue(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalValue(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
  }
};

/** `scalar JSON`: any JSON value (snapshots, deltas, filters). */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: (node, variables) => literalValue(node, variables),
});

/** `scalar GraphQLStringOrFloat`: a number or a string (filter values of numeric and date fields), as Directus has it. */
export const StringOrFloatScalar = new GraphQLScalarType({
  name: 'GraphQLStringOrFloat',
  serialize: (v) => v,
  parseValue: (v) => {
    if (typeof v === 'string' || typeof v === 'number') return v;
    throw new TypeError('GraphQLStringOrFloat must be a string or a number');
  },
  parseLiteral: (node) => {
    if (node.kind === Kind.STRING) return node.value;
    if (node.kind === Kind.INT || node.kind === Kind.FLOAT) return Number(node.value);
    throw new TypeError('GraphQLStringOrFloat must be a string or a number');
  },
});
