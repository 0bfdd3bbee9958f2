import type { RequestBodyName } from '@vellum/contracts';

/** Every public route of the contract (§3–§7): what the OpenAPI document is generated from. */
export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete' | 'search';
export type Access = 'public' | 'authenticated' | 'admin';

export interface RouteDefinition {
  method: HttpMethod;
  /** OpenAPI path template, e.g. /revisions/{id} */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  /**
   * The JSON body: the name of the service's zod schema in `requestBodies` (@vellum/contracts) — the route of the
   * service declares the very same schema object, which a drift test checks — or the gateway's own GraphQL request.
   */
  body?: RequestBodyName | 'GraphQLRequest';
  /** status → component schema name (or null for no body). */
  responses: Record<string, string | null>;
  /** Takes the §5 query parameters (true), only `fields` (one record), or an event stream's `fields`, `filter`, `since`. */
  query?: boolean | 'fields' | 'stream';
  /** Takes `version=<key>`: reads the items as that content version has them (issue 36). */
  versioned?: boolean;
}

const r = (method: HttpMethod, path: string, tag: string, access: Access, summary: string, extra: Partial<RouteDefinition> = {}): RouteDefinition => ({
  method,
  path,
  tag,
  access,
  summary,
  responses: { '200': 'Item' },
  ...extra,
});

const list = { query: true, responses: { '200': 'List' } };
const fields = { query: 'fields' as const };
const none = { responses: { '204': null } };

/** The six admin routes of a §4 collection (`/roles`, `/permissions`): list, search, create, read, update, delete. */
function adminCollection(name: string, schema: string, noun: string, body: { create: RequestBodyName; update: RequestBodyName }): RouteDefinition[] {
  const [many, one, path] = [{ '200': `List:${schema}` }, { '200': `One:${schema}` }, `/${name}`];
  return [
    r('get', path, name, 'admin', `List ${name} (the query language)`, { ...list, responses: many }),
    r('search', path, name, 'admin', `Query ${name} with the query in the body`, { body: 'SearchRequest', responses: many }),
    r('post', path, name, 'admin', `Create a ${noun} (or several)`, { body: body.create, responses: one }),
    r('get', `${path}/{id}`, name, 'admin', `One ${noun}`, { ...fields, responses: one }),
    r('patch', `${path}/{id}`, name, 'admin', `Update a ${noun}`, { body: body.update, responses: one }),
    r('delete', `${path}/{id}`, name, 'admin', `Delete a ${noun}`, none),
  ];
}

export const ROUTES: RouteDefinition[] = [
  // §3 authentication
  r('post', '/auth/login', 'auth', 'public', 'Log in', { body: 'LoginRequest', responses: { '200': 'Tokens' } }),
  r('post', '/auth/refresh', 'auth', 'public', 'Rotate the refresh token / session', { body: 'RefreshRequest', responses: { '200': 'Tokens' } }),
  r('post', '/auth/logout', 'auth', 'public', 'Log out (delete the session)', { body: 'RefreshRequest', ...none }),
  r('post', '/auth/password/request', 'auth', 'public', 'Request a password reset mail', { body: 'PasswordRequest', ...none }),
  r('post', '/auth/password/reset', 'auth', 'public', 'Reset the password with a reset token', { body: 'PasswordReset', ...none }),
  r('post', '/auth/device', 'auth', 'public', 'Trust this browser (device cookie) with an unused password-reset or invitation token', {
    body: 'DeviceTrustRequest',
    ...none,
  }),
  r('get', '/auth', 'auth', 'public', 'List providers (Directus shape)', { responses: { '200': 'Providers' } }),
  r('get', '/auth/oauth', 'auth', 'public', 'List OAuth provider keys', { responses: { '200': 'ProviderKeys' } }),
  r('get', '/auth/login/{provider}', 'auth', 'public', 'Start an OAuth/OpenID login', { responses: { '302': null } }),
  r('get', '/auth/oauth/{provider}', 'auth', 'public', 'Start an OAuth/OpenID login (alias)', { responses: { '302': null } }),
  r('get', '/auth/login/{provider}/callback', 'auth', 'public', 'OAuth/OpenID callback', { responses: { '200': 'Tokens', '302': null } }),
  r('post', '/users/me/tfa/generate', 'users', 'authenticated', 'Generate a TFA secret', { body: 'TfaGenerateRequest', responses: { '200': 'TfaGenerate' } }),
  r('post', '/users/me/tfa/enable', 'users', 'authenticated', 'Enable TFA', { body: 'TfaEnableRequest', ...none }),
  r('post', '/users/{id}/tfa/reset', 'users', 'admin', "Reset a user's TFA (a lost authenticator): no code asked", { ...none }),
  r('post', '/users/me/tfa/disable', 'users', 'authenticated', 'Disable TFA', { body: 'TfaDisableRequest', ...none }),
  // §4 users, roles, permissions
  r('get', '/users', 'users', 'admin', 'List users (the query language; password and TFA secret only as set/unset)', {
    ...list,
    responses: { '200': 'List:User' },
  }),
  r('search', '/users', 'users', 'admin', 'Query users with the query in the body', { body: 'SearchRequest', responses: { '200': 'List:User' } }),
  r('post', '/users', 'users', 'admin', 'Create a user (or several)', { body: 'UsersCreateRequest', responses: { '200': 'One:User' } }),
  r('get', '/users/me', 'users', 'authenticated', 'The current user', { ...fields, responses: { '200': 'One:User' } }),
  r('patch', '/users/me', 'users', 'authenticated', 'Update the current user', { body: 'UserSelfUpdateRequest', responses: { '200': 'One:User' } }),
  r('get', '/users/me/sessions', 'sessions', 'authenticated', 'The current user’s sessions (devices)', { responses: { '200': 'List:Session' } }),
  r('delete', '/users/me/sessions', 'sessions', 'authenticated', 'End every other session of the current user', none),
  r(
    'delete',
    '/users/me/sessions/{session}',
    'sessions',
    'authenticated',
    'End one session of the current user (its refresh and access tokens stop working)',
    none,
  ),
  r('get', '/users/{id}/sessions', 'sessions', 'admin', 'A user’s sessions', { responses: { '200': 'List:Session' } }),
  r('delete', '/users/{id}/sessions', 'sessions', 'admin', 'End every session of a user', none),
  r('delete', '/users/{id}/sessions/{session}', 'sessions', 'admin', 'End one session of a user', none),
  r('get', '/users/me/devices', 'sessions', 'authenticated', 'The current user’s trusted devices (device cookies)', { responses: { '200': 'List:Device' } }),
  r(
    'delete',
    '/users/me/devices/{device}',
    'sessions',
    'authenticated',
    'Forget one of the current user’s devices (its cookie is untrusted from now on)',
    none,
  ),
  r('get', '/users/{id}/devices', 'sessions', 'admin', 'A user’s trusted devices', { responses: { '200': 'List:Device' } }),
  r('delete', '/users/{id}/devices/{device}', 'sessions', 'admin', 'Forget one of a user’s devices', none),
  r('post', '/users/{id}/unlock', 'users', 'admin', 'Start a user’s failed-login buckets (untrusted, TOTP, devices) again', none),
  r('post', '/users/me/tokens', 'tokens', 'authenticated', 'Create an API token (the secret is shown once)', {
    body: 'ApiTokenCreateRequest',
    responses: { '200': 'One:ApiToken' },
  }),
  r('get', '/users/me/tokens', 'tokens', 'authenticated', 'The current user’s API tokens (never the secrets)', { responses: { '200': 'List:ApiToken' } }),
  r('delete', '/users/me/tokens/{token}', 'tokens', 'authenticated', 'Revoke one of the current user’s API tokens', none),
  r('post', '/users/{id}/tokens', 'tokens', 'admin', 'Create an API token for a user', { body: 'ApiTokenCreateRequest', responses: { '200': 'One:ApiToken' } }),
  r('get', '/users/{id}/tokens', 'tokens', 'admin', 'A user’s API tokens', { responses: { '200': 'List:ApiToken' } }),
  r('delete', '/users/{id}/tokens/{token}', 'tokens', 'admin', 'Revoke a user’s API token', none),
  r('post', '/users/invite', 'users', 'admin', 'Invite a user (mail via the queue)', { body: 'Invite', ...none }),
  r('post', '/users/invite/accept', 'users', 'public', 'Accept an invitation', { body: 'InviteAccept', ...none }),
  r('get', '/users/{id}', 'users', 'admin', 'One user', { ...fields, responses: { '200': 'One:User' } }),
  r('patch', '/users/{id}', 'users', 'admin', 'Update a user', { body: 'UserUpdateRequest', responses: { '200': 'One:User' } }),
  r('delete', '/users/{id}', 'users', 'admin', 'Delete a user', none),
  ...adminCollection('roles', 'Role', 'role', { create: 'RolesCreateRequest', update: 'RoleUpdateRequest' }),
  r('get', '/permissions/me', 'permissions', 'authenticated', "The caller's own permissions (its role's rules; an app shows only what the user may do)", {
    responses: { '200': 'List:Permission' },
  }),
  ...adminCollection('permissions', 'Permission', 'permission', { create: 'PermissionsCreateRequest', update: 'PermissionUpdateRequest' }),
  // §5 revisions
  r('get', '/revisions', 'revisions', 'public', 'List revisions the caller may read', { ...list, responses: { '200': 'List:Revision' } }),
  r('search', '/revisions', 'revisions', 'public', 'Query revisions with the query in the body', {
    body: 'SearchRequest',
    responses: { '200': 'List:Revision' },
  }),
  r('get', '/revisions/stream', 'revisions', 'public', 'Server-sent events of the revisions the caller may read, as recorded (resumable: Last-Event-ID)', {
    query: 'stream',
    responses: { '200': 'EventStream' },
  }),
  r('get', '/revisions/{id}', 'revisions', 'public', 'One revision (403 when unreadable or missing)', { responses: { '200': 'One:Revision' } }),
  r(
    'get',
    '/revisions/{a}/compare/{b}',
    'revisions',
    'public',
    'Compare two revisions of one item (b: a revision id or `live`): JSON, JSON Patch or merge patch by Accept',
    {
      responses: { '200': 'Item' },
    },
  ),
  r(
    'post',
    '/revisions/{id}/restore',
    'revisions',
    'public',
    'Write the item back to this revision (a `revert`; a revision with children: its whole tree); `?dry_run=true` only answers what it would do',
    {
      responses: { '200': 'Item' },
    },
  ),
  r('get', '/activity', 'revisions', 'public', 'List the activity records of revisions the caller may read', {
    ...list,
    responses: { '200': 'List:Activity' },
  }),
  r('search', '/activity', 'revisions', 'public', 'Query activity with the query in the body', {
    body: 'SearchRequest',
    responses: { '200': 'List:Activity' },
  }),
  r('get', '/activity/{id}', 'revisions', 'public', 'One activity record (403 when unreadable or missing)', { responses: { '200': 'One:Activity' } }),
  // §6 items
  r('get', '/collections', 'collections', 'public', 'List collections', { responses: { '200': 'List:Collection' } }),
  r('post', '/collections', 'collections', 'admin', 'Create a collection', { body: 'CollectionRequest', responses: { '200': 'One:Collection' } }),
  r('get', '/collections/{name}', 'collections', 'public', 'One collection', { responses: { '200': 'One:Collection' } }),
  r('patch', '/collections/{name}', 'collections', 'admin', "Change a collection's meta", {
    body: 'CollectionUpdateRequest',
    responses: { '200': 'One:Collection' },
  }),
  r('delete', '/collections/{name}', 'collections', 'admin', 'Delete a collection', none),
  r('get', '/fields', 'fields', 'admin', "Every collection's fields", { responses: { '200': 'List:Field' } }),
  r('get', '/fields/{collection}', 'fields', 'admin', "A collection's fields", { responses: { '200': 'List:Field' } }),
  r('get', '/fields/{collection}/{field}', 'fields', 'admin', 'One field', { responses: { '200': 'One:Field' } }),
  r('post', '/fields/{collection}', 'fields', 'admin', 'Add a field (a column, online)', { body: 'FieldRequest', responses: { '200': 'One:Field' } }),
  r('patch', '/fields/{collection}/{field}', 'fields', 'admin', 'Change a field', { body: 'FieldUpdateRequest', responses: { '200': 'One:Field' } }),
  r('delete', '/fields/{collection}/{field}', 'fields', 'admin', 'Drop a field (its data; revisions stay)', none),
  r('get', '/relations', 'relations', 'public', 'The relations between the collections the caller may use', { responses: { '200': 'List:Relation' } }),
  r('get', '/relations/{collection}', 'relations', 'public', "A collection's relations (its many-to-one fields)", { responses: { '200': 'List:Relation' } }),
  r('get', '/relations/{collection}/{field}', 'relations', 'public', 'One relation', { responses: { '200': 'One:Relation' } }),
  r('post', '/relations', 'relations', 'admin', 'Relate two collections (a foreign key, online)', {
    body: 'RelationRequest',
    responses: { '200': 'One:Relation' },
  }),
  r('patch', '/relations/{collection}/{field}', 'relations', 'admin', "Change a relation's meta or on_delete", {
    body: 'RelationUpdateRequest',
    responses: { '200': 'One:Relation' },
  }),
  r('delete', '/relations/{collection}/{field}', 'relations', 'admin', 'Remove a relation (its foreign key; the column stays)', none),
  r('get', '/items/{collection}', 'items', 'public', 'List items', { ...list, versioned: true, responses: { '200': 'List:Item' } }),
  r('search', '/items/{collection}', 'items', 'public', 'Query items with the query in the body', {
    body: 'SearchRequest',
    versioned: true,
    responses: { '200': 'List:Item' },
  }),
  r('post', '/items/{collection}', 'items', 'public', 'Create one item or many', { body: 'ItemsCreateRequest', responses: { '200': 'One:Item' } }),
  r('patch', '/items/{collection}', 'items', 'public', 'Update many items (by keys, or items with their keys)', {
    body: 'ItemsUpdateRequest',
    responses: { '200': 'List:Item' },
  }),
  r('delete', '/items/{collection}', 'items', 'public', 'Delete many items (the body: an array of keys, or {"keys": [...]})', none),
  r('get', '/items/{collection}/{id}', 'items', 'public', 'One item', { versioned: true, responses: { '200': 'One:Item' } }),
  r('patch', '/items/{collection}/{id}', 'items', 'public', 'Update an item', { body: 'ItemUpdateRequest', responses: { '200': 'One:Item' } }),
  r('delete', '/items/{collection}/{id}', 'items', 'public', 'Delete an item', none),
  // content versions (issue 36): read on the item's collection to see one, update to change, save or promote it
  r('get', '/versions', 'versions', 'public', 'List the versions of the collections the caller may read', { ...list, responses: { '200': 'List:Version' } }),
  r('search', '/versions', 'versions', 'public', 'Query versions with the query in the body', { body: 'SearchRequest', responses: { '200': 'List:Version' } }),
  r('post', '/versions', 'versions', 'public', 'Create a version of an item (or several)', { body: 'VersionRequest', responses: { '200': 'One:Version' } }),
  r('get', '/versions/{id}', 'versions', 'public', 'One version', { ...fields, responses: { '200': 'One:Version' } }),
  r('patch', '/versions/{id}', 'versions', 'public', 'Rename a version (key, name)', { body: 'VersionUpdateRequest', responses: { '200': 'One:Version' } }),
  r('delete', '/versions/{id}', 'versions', 'public', 'Delete a version (its revisions stay)', none),
  r('post', '/versions/{id}/save', 'versions', 'public', 'Save a partial item to the version (deep merge; the item is not written)', {
    body: 'VersionSaveRequest',
    responses: { '200': 'One:Item' },
  }),
  r('get', '/versions/{id}/compare', 'versions', 'public', 'The version against the live item: outdated, mainHash, current, main', {
    responses: { '200': 'Item' },
  }),
  r('post', '/versions/{id}/promote', 'versions', 'public', 'Apply the version (or fields of it) to the item; 422 on a stale mainHash', {
    body: 'VersionPromoteRequest',
    responses: { '200': 'Item' },
  }),
  // §7 server + GraphQL
  r('get', '/server/ping', 'server', 'public', 'Liveness', { responses: { '200': 'Text' } }),
  r('get', '/server/ready', 'server', 'public', 'Readiness: the gateway can serve (status only; 503 when not)', {
    responses: { '200': 'Health', '503': 'Health' },
  }),
  r('get', '/server/health', 'server', 'public', 'Health: the status; the checks per service and replica for admins and HEALTH_TOKEN (503 on error)', {
    responses: { '200': 'Health', '503': 'Health' },
  }),
  r('get', '/server/info', 'server', 'public', 'Project basics; limits for users; version for admins (Directus serverInfo)', { responses: { '200': 'Item' } }),
  r('get', '/server/specs/oas', 'server', 'public', 'This OpenAPI document', { responses: { '200': 'Item' } }),
  r('get', '/server/specs/graphql/system', 'server', 'public', 'The composed GraphQL SDL', { responses: { '200': 'Text' } }),
  r('post', '/graphql/system', 'graphql', 'public', 'Federated GraphQL (auth + revisions)', {
    body: 'GraphQLRequest',
    responses: { '200': 'GraphQLResponse' },
  }),
  r('get', '/graphql/system', 'graphql', 'public', 'Federated GraphQL query by GET', { responses: { '200': 'GraphQLResponse' } }),
];
