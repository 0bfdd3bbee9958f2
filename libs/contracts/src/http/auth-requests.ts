import { z } from 'zod';
import { oneOf, optionalString, requiredEmail, requiredString, absentAsEmpty } from './body-fields';

/** How tokens are handed out (contract §3). */
export const AUTH_MODES = ['json', 'cookie', 'session'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

const mode = oneOf('mode', AUTH_MODES, ', ', true).nullish();

// Auth bodies may be absent altogether (a refresh with the cookie only): no body reads as `{}`.

/** `POST /auth/login`: the first failing field in the order email, password, mode, otp (contract §3). */
export const loginRequestSchema = absentAsEmpty(
  z.object({
    email: requiredEmail(),
    password: requiredString('password'),
    mode,
    otp: optionalString('otp'),
    /** A solved proof-of-work challenge, `<challenge>:<nonce>` (only asked for during a password spray). */
    pow: optionalString('pow'),
  }),
);
export type LoginRequest = z.output<typeof loginRequestSchema>;

/** `POST /auth/refresh` and `POST /auth/logout`: the token from the body, or a cookie. */
export const refreshRequestSchema = absentAsEmpty(z.object({ refresh_token: optionalString('refresh_token'), mode }));
export type RefreshRequest = z.output<typeof refreshRequestSchema>;

/** `POST /auth/password/request`. */
export const passwordRequestSchema = absentAsEmpty(z.object({ email: requiredEmail(), reset_url: optionalString('reset_url') }));
export type PasswordRequest = z.output<typeof passwordRequestSchema>;

/** `POST /auth/password/reset` (the password policy is the service's check: 400 FAILED_VALIDATION). */
export const passwordResetSchema = absentAsEmpty(z.object({ token: requiredString('token'), password: requiredString('password') }));
export type PasswordReset = z.output<typeof passwordResetSchema>;

/** `POST /auth/device`: a password-reset or invitation token that trusts this browser. */
export const deviceTrustSchema = absentAsEmpty(z.object({ token: requiredString('token') }));
export type DeviceTrustRequest = z.output<typeof deviceTrustSchema>;

/** `POST /users/me/tfa/generate`. */
export const tfaGenerateSchema = absentAsEmpty(z.object({ password: requiredString('password') }));
/** `POST /users/me/tfa/enable`. */
export const tfaEnableSchema = absentAsEmpty(z.object({ secret: requiredString('secret'), otp: requiredString('otp') }));
/** `POST /users/me/tfa/disable`. */
export const tfaDisableSchema = absentAsEmpty(z.object({ otp: requiredString('otp') }));
export type TfaGenerateRequest = z.output<typeof tfaGenerateSchema>;
export type TfaEnableRequest = z.output<typeof tfaEnableSchema>;
export type TfaDisableRequest = z.output<typeof tfaDisableSchema>;
