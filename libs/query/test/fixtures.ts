import { defineSchema } from '../src';

/** The revisions schema shape, as the revisions service describes it. */
export const schema = defineSchema({
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
