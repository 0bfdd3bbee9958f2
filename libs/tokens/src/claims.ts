/** The claims of a Vellum access token (contract §3). */
export interface AccessTokenClaims {
  id: string;
  role: string | null;
  app_access: boolean;
  admin_access: boolean;
  /** Session id, in session mode. */
  session?: string;
  /**
   * The session (refresh-token rotation family) the token was issued for: ending the session (logout,
   * `DELETE /users/me/sessions/:id`) revokes this id, and every service then refuses the token.
   */
  sid?: string;
  /** Set when the caller presented an API (or static) token: the token's id. */
  api_token?: string;
  /** Set when the role enforces TFA and the user has not enrolled. */
  enforce_tfa?: boolean;
  iss: string;
  iat: number;
  exp: number;
}

export const ISSUER = 'vellum';
/** Asymmetric algorithms only: a token signed any other way is rejected. */
export const ALGORITHMS = ['ES256'] as const;
