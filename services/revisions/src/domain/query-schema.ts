import { defineSchema } from '@vellum/query';

/** The tables the query language may read (contract §5 records), by logical name. */
export const revisionsSchema = defineSchema({
  revisions: {
    name: 'revisions',
    table: 'revisions',
    primaryKey: 'id',
    fields: {
      id: { type: 'bigInteger' },
      activity: { type: 'bigInteger', relation: 'activity' },
      collection: { type: 'string' },
      item: { type: 'string' },
      data: { type: 'json' },
      delta: { type: 'json' },
      parent: { type: 'bigInteger', relation: 'revisions' },
      version: { type: 'string', searchable: false },
    },
  },
  activity: {
    name: 'activity',
    table: 'activity',
    primaryKey: 'id',
    fields: {
      id: { type: 'bigInteger' },
      action: { type: 'string' },
      user: { type: 'string' },
      timestamp: { type: 'timestamp' },
      ip: { type: 'string' },
      user_agent: { type: 'string' },
      collection: { type: 'string' },
      item: { type: 'string' },
      origin: { type: 'string' },
    },
  },
});
