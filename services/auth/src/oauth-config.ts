import { loadConfig, z, bool, list, type Env } from '@vellum/config';

/** One AUTH_<NAME>_* provider (Directus's variable names). */
export interface OAuthProviderConfig {
  /** The provider key (lower case), as in the URLs. */
  name: string;
  driver: 'openid' | 'oauth2';
  clientId: string;
  clientSecret?: string;
  issuerUrl?: string;
  authorizeUrl?: string;
  accessUrl?: string;
  profileUrl?: string;
  scope: string;
  identifierKey: string;
  emailKey: string;
  allowPublicRegistration: boolean;
  defaultRoleId?: string;
  redirectAllowList: string[];
  mode: 'json' | 'cookie' | 'session';
  label: string;
  icon: string;
  linkExistingByVerifiedEmail: boolean;
}

const providerShape = (p: string) => ({
  [`${p}_DRIVER`]: z.enum(['openid', 'oauth2']),
  [`${p}_CLIENT_ID`]: z.string().min(1),
  [`${p}_CLIENT_SECRET`]: z.string().optional(),
  [`${p}_ISSUER_URL`]: z.string().url().optional(),
  [`${p}_AUTHORIZE_URL`]: z.string().url().optional(),
  [`${p}_ACCESS_URL`]: z.string().url().optional(),
  [`${p}_PROFILE_URL`]: z.string().url().optional(),
  [`${p}_SCOPE`]: z.string().optional(),
  [`${p}_IDENTIFIER_KEY`]: z.string().optional(),
  [`${p}_EMAIL_KEY`]: z.string().default('email'),
  [`${p}_ALLOW_PUBLIC_REGISTRATION`]: bool(false),
  [`${p}_DEFAULT_ROLE_ID`]: z.string().uuid().optional(),
  [`${p}_REDIRECT_ALLOW_LIST`]: list(),
  [`${p}_MODE`]: z.enum(['json', 'cookie', 'session']).default('session'),
  [`${p}_LABEL`]: z.string().optional(),
  [`${p}_ICON`]: z.string().optional(),
  [`${p}_LINK_EXISTING_BY_VERIFIED_EMAIL`]: bool(false),
});

/** AUTH_PROVIDERS (comma list) and each provider's AUTH_<NAME>_* settings; every problem reported at once. */
export function loadOAuthProviders(env: Env): OAuthProviderConfig[] {
  const names = loadConfig({ AUTH_PROVIDERS: list() }, env).AUTH_PROVIDERS.map((n) => n.toLowerCase());
  if (names.length === 0) return [];
  const shape = Object.assign({}, ...names.map((n) => providerShape(`AUTH_${n.toUpperCase()}`))) as ReturnType<typeof providerShape>;
  const c = loadConfig(shape, env) as Record<string, unknown>;
  const problems: string[] = [];
  const providers = names.map((name): OAuthProviderConfig => {
    const p = `AUTH_${name.toUpperCase()}`;
    const get = <T>(k: string) => c[`${p}_${k}`] as T;
    const driver = get<'openid' | 'oauth2'>('DRIVER');
    if (driver === 'openid' && !get('ISSUER_URL')) problems.push(`${p}_ISSUER_URL: is required for the openid driver`);
    if (driver === 'oauth2') {
      for (const k of ['AUTHORIZE_URL', 'ACCESS_URL', 'PROFILE_URL']) if (!get(k)) problems.push(`${p}_${k}: is required for the oauth2 driver`);
    }
    if (!/^[a-z0-9_-]+$/.test(name)) problems.push(`AUTH_PROVIDERS: "${name}" is not a valid provider key`);
    return {
      name,
      driver,
      clientId: get('CLIENT_ID'),
      clientSecret: get('CLIENT_SECRET'),
      issuerUrl: get('ISSUER_URL'),
      authorizeUrl: get('AUTHORIZE_URL'),
      accessUrl: get('ACCESS_URL'),
      profileUrl: get('PROFILE_URL'),
      scope: get<string | undefined>('SCOPE') ?? (driver === 'openid' ? 'openid profile email' : 'email'),
      identifierKey: get<string | undefined>('IDENTIFIER_KEY') ?? (driver === 'openid' ? 'sub' : 'email'),
      emailKey: get('EMAIL_KEY'),
      allowPublicRegistration: get('ALLOW_PUBLIC_REGISTRATION'),
      defaultRoleId: get('DEFAULT_ROLE_ID'),
      redirectAllowList: get('REDIRECT_ALLOW_LIST'),
      mode: get('MODE'),
      label: get<string | undefined>('LABEL') ?? name,
      icon: get<string | undefined>('ICON') ?? (driver === 'openid' ? 'account_circle' : 'lock'),
      linkExistingByVerifiedEmail: get('LINK_EXISTING_BY_VERIFIED_EMAIL'),
    };
  });
  if (problems.length) throw new Error(`Invalid configuration:\n${problems.map((x) => `  - ${x}`).join('\n')}`);
  return providers;
}
