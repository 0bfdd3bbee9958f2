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
