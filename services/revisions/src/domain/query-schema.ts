import { defineSchema, tableOf, unsearchable } from '@vellum/query';

/** The tables the query language may read (contract §5 records), by logical name. */
export const revisionsSchema = defineSchema({
  revisions: tableOf('revisions', 'id', {
    id: 'bigInteger',
    activity: { type: 'bigInteger', relation: 'activity' },
    collection: 'string',
    item: 'string',
    data: 'json',
    delta: 'json',
    parent: { type: 'bigInteger', relation: 'revisions' },
    version: unsearchable('string'),
  }),
  activity: tableOf('activity', 'id', {
    id: 'bigInteger',
    action: 'string',
    user: 'string',
    timestamp: 'timestamp',
    ip: 'string',
    user_agent: 'string',
    collection: 'string',
    item: 'string',
    origin: 'string',
    comment: 'string',
  }),
});
