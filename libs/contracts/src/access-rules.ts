import { z } from 'zod';

export const ACTIONS = ['create', 'read', 'update', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * One role's entry in the access-rules map (published by auth on every change of roles/permissions):
 * `permissions[collection][action]` = the fields allowed (`["*"]` = all); a missing action = not allowed.
 */
export const roleAccessSchema = z.object({
  role: z.string().nullable(),
  admin: z.boolean(),
  app: z.boolean(),
  permissions: z.record(z.string(), z.partialRecord(z.enum(ACTIONS), z.array(z.string()))),
  updated_at: z.string(),
});
export type RoleAccess = z.infer<typeof roleAccessSchema>;

/** Fields of `collection` the role may use for `action`: null = not allowed, '*' = all. */
export function allowedFields(access: RoleAccess | undefined, collection: string, action: Action): '*' | string[] | null {
  if (!access) return null;
  if (access.admin) return '*';
  const fields = access.permissions[collection]?.[action];
  if (!fields) return null;
  return fields.includes('*') ? '*' : fields;
}

/** Collections the role may perform `action` on (admin: '*'). */
export function allowedCollections(access: RoleAccess | undefined, action: Action): '*' | string[] {
  if (!access) return [];
  if (access.admin) return '*';
  return Object.entries(access.permissions)
    .filter(([, p]) => p[action] !== undefined)
    .map(([c]) => c);
}
