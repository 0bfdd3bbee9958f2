import { api, json, ok, type Revision } from '../../api/client';

type Rev = Revision & { activity?: { action?: string } };

/**
 * Why an item cannot be read, from its history: deleted (with the values it had last, for an undelete) or never
 * there (`deleted: false`). Revisions the role may not read are not counted.
 */
export async function lastState(collection: string, id: string): Promise<{ deleted: boolean; data?: Record<string, unknown>; revision?: number }> {
  const filter = json({ _and: [{ collection: { _eq: collection } }, { item: { _eq: id } }] });
  const revs = (await ok(api.GET('/revisions', { params: { query: { filter, sort: '-id', fields: 'id,data,activity.action', limit: 5 } } }))).data as Rev[];
  if (revs[0]?.activity?.action !== 'delete') return { deleted: false };
  const last = revs.find((r) => r.data);
  return { deleted: true, data: (last?.data as Record<string, unknown> | undefined) ?? undefined, revision: last?.id as number | undefined };
}
