import { errors } from '@vellum/errors';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

/** Throws FAILED_VALIDATION (field "password", never the value) when the password breaks the policy. */
export function checkPasswordPolicy(password: string, policy?: string): void {
  if (password.length < PASSWORD_MIN) {
    throw errors.failedValidation('password', 'min_length', `Password must be at least ${PASSWORD_MIN} characters long.`);
  }
  if (password.length > PASSWORD_MAX) {
    throw errors.failedValidation('password', 'max_length', `Password must be at most ${PASSWORD_MAX} characters long.`);
  }
  if (policy && !toRegExp(policy).test(password)) {
    throw errors.failedValidation('password', 'regex', "Password doesn't have the required format.");
  }
}

/** "/^.{12,}$/i" or a bare pattern. */
function toRegExp(policy: string): RegExp {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(policy);
  return m ? new RegExp(m[1], m[2]) : new RegExp(policy);
}
