/** Stream, subject and bucket names shared by producers and consumers. */
export const ITEMS_STREAM = 'ITEMS';
export const ITEMS_SUBJECTS = ['items.>'];
/** `items.<collection>.<action>` — one subject per collection keeps per-collection ordering visible. */
export const itemChangeSubject = (collection: string, action: string) => `items.${collection}.${action}`;

export const MAIL_QUEUE = 'MAIL';
export const MAIL_SUBJECTS = ['mail.>'];
export const MAIL_SUBJECT = 'mail.send';

/** The access-rules map: key = role id, or PUBLIC_ROLE_KEY for the public role. */
export const ACCESS_BUCKET = 'vellum_access';
export const PUBLIC_ROLE_KEY = 'public';
/** Revoked session ids (session-mode tokens die at once on logout, in every service). */
export const REVOKED_SESSIONS_BUCKET = 'vellum_revoked_sessions';
/**
 * Valid API tokens (and static tokens): key = SHA-256 (hex) of the token, value = an ApiTokenEntry. A revoked or
 * expired token, or one of a user who is no longer active, is absent (the services refuse it within a second).
 */
export const API_TOKENS_BUCKET = 'vellum_api_tokens';
/** Token uses seen by the gateway and the services (key = token id, at most one put a minute per process). */
export const API_TOKEN_USES_BUCKET = 'vellum_api_token_uses';
