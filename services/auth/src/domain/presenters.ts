import { REDACTED } from '@vellum/contracts';
import type { Permission, Role, User } from '../data/prisma';

/** A user as the API and the item-change events show it: secrets are "**********". */
export function presentUser(u: User): Record<string, unknown> {
  return {
    id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    password: u.password ? REDACTED : null,
    status: u.status,
    role: u.role_id,
    title: u.title,
    description: u.description,
    language: u.language,
    provider: u.provider,
    external_identifier: u.external_identifier,
    tfa_secret: u.tfa_secret ? REDACTED : null,
    last_access: u.last_access ? u.last_access.toISOString() : null,
  };
}

export function presentRole(r: Role): Record<string, unknown> {
  return {
    id: r.id,
    name: r.name,
    icon: r.icon,
    description: r.description,
    admin_access: r.admin_access,
    app_access: r.app_access,
    enforce_tfa: r.enforce_tfa,
  };
}

export function presentPermission(p: Permission): Record<string, unknown> {
  const { id, role_id: role, collection, action, fields } = p;
  return { id, role, collection, action, fields, permissions: p.permissions ?? null, validation: p.validation ?? null, presets: p.presets ?? null };
}
