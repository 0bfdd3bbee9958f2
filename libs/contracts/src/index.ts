export * from './subjects';
export { itemChangeEventSchema, ITEM_CHANGE_EVENT_VERSION, REDACTED, type ItemChangeEvent } from './item-change-event';
export { itemChangeMessage, type ChangeActor, type ItemChange, type ItemChangeMessage } from './item-change-message';
export { auditEventSchema, type AuditEvent } from './audit-event';
export { mailJobSchema, MAIL_JOB_VERSION, type MailJob } from './mail-job';
export { roleAccessSchema, allowedFields, allowedCollections, ACTIONS, type Action, type RoleAccess } from './access-rules';
export { apiTokenEntrySchema, apiTokenUseSchema, type ApiTokenEntry, type ApiTokenUse } from './api-token';
export * from './http';
