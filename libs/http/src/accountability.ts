/** Who is calling, as established by token verification. The public role is `{ user: null, role: null }`. */
export interface Accountability {
  user: string | null;
  role: string | null;
  admin: boolean;
  app: boolean;
  /** Session id when the caller authenticated with a session token. */
  session?: string | null;
  /** The session (rotation family) the access token belongs to: the id `GET /users/me/sessions` shows. */
  sessionFamily?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  origin?: string | null;
}

export const publicAccountability = (): Accountability => ({ user: null, role: null, admin: false, app: false });

declare module 'express-serve-static-core' {
  interface Request {
    accountability?: Accountability;
    requestId?: string;
  }
}
