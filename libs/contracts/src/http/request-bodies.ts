import { z } from 'zod';
import {
  deviceTrustSchema,
  loginRequestSchema,
  passwordRequestSchema,
  passwordResetSchema,
  refreshRequestSchema,
  tfaDisableSchema,
  tfaEnableSchema,
  tfaGenerateSchema,
} from './auth-requests';
import {
  collectionRequestSchema,
  collectionUpdateSchema,
  fieldCreateSchema,
  fieldUpdateSchema,
  itemUpdateSchema,
  itemsCreateSchema,
  itemsUpdateSchema,
} from './items-requests';
import { relationCreateSchema, relationUpdateSchema } from './relations-requests';
import { searchRequestSchema } from './revisions-requests';
import { versionCreateSchema, versionPromoteSchema, versionSaveSchema, versionUpdateSchema } from './versions-requests';
import {
  apiTokenCreateSchema,
  inviteAcceptSchema,
  inviteSchema,
  permissionUpdateSchema,
  permissionsCreateSchema,
  roleUpdateSchema,
  rolesCreateSchema,
  userSchema,
  userSelfSchema,
  usersCreateSchema,
} from './users-requests';

/**
 * Every request body schema of the contract under its OpenAPI component name. The services validate with these
 * objects (`route(…, { body })`), the gateway documents them (`requestBodyJsonSchema`); a drift test checks both.
 */
export const requestBodies = {
  LoginRequest: loginRequestSchema,
  RefreshRequest: refreshRequestSchema,
  PasswordRequest: passwordRequestSchema,
  PasswordReset: passwordResetSchema,
  DeviceTrustRequest: deviceTrustSchema,
  TfaGenerateRequest: tfaGenerateSchema,
  TfaEnableRequest: tfaEnableSchema,
  TfaDisableRequest: tfaDisableSchema,
  UsersCreateRequest: usersCreateSchema,
  UserUpdateRequest: userSchema,
  UserSelfUpdateRequest: userSelfSchema,
  Invite: inviteSchema,
  InviteAccept: inviteAcceptSchema,
  ApiTokenCreateRequest: apiTokenCreateSchema,
  RolesCreateRequest: rolesCreateSchema,
  RoleUpdateRequest: roleUpdateSchema,
  PermissionsCreateRequest: permissionsCreateSchema,
  PermissionUpdateRequest: permissionUpdateSchema,
  CollectionRequest: collectionRequestSchema,
  CollectionUpdateRequest: collectionUpdateSchema,
  FieldRequest: fieldCreateSchema,
  FieldUpdateRequest: fieldUpdateSchema,
  RelationRequest: relationCreateSchema,
  RelationUpdateRequest: relationUpdateSchema,
  VersionRequest: versionCreateSchema,
  VersionUpdateRequest: versionUpdateSchema,
  VersionSaveRequest: versionSaveSchema,
  VersionPromoteRequest: versionPromoteSchema,
  ItemsCreateRequest: itemsCreateSchema,
  ItemUpdateRequest: itemUpdateSchema,
  ItemsUpdateRequest: itemsUpdateSchema,
  SearchRequest: searchRequestSchema,
} satisfies Record<string, z.ZodType>;
export type RequestBodyName = keyof typeof requestBodies;

/** The JSON Schema (2020-12, as OpenAPI 3.1 uses it) of a request body schema: what a client may send. */
export function requestBodyJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
  }) as Record<string, unknown>;
  return json;
}
