import type * as OpenIdClient from 'openid-client' with { 'resolution-mode': 'import' };
import { errors } from '@vellum/errors';
import type { OAuthProviderConfig } from '../oauth-config';

type Lib = typeof OpenIdClient;
let lib: Promise<Lib> | undefined;
/** openid-client 6 is ESM-only: loaded with import() (Node 20.20 runs it from CommonJS; Jest compiles it). */
export const openidClient = (): Promise<Lib> => (lib ??= import('openid-client'));

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** http is allowed only for a loopback issuer/endpoint (tests, local development). */
function insecureAllowed(urls: (string | undefined)[]): boolean {
  return urls.some((u) => u && new URL(u).protocol === 'http:' && LOOPBACK.has(new URL(u).hostname));
}

/**
 * The client configuration per provider: openid → issuer discovery (cached; retried after a failure);
 * oauth2 → explicit endpoints. A provider that cannot be reached → 503 SERVICE_UNAVAILABLE.
 */
export class OAuthClients {
  private readonly configs = new Map<string, Promise<OpenIdClient.Configuration>>();

  get(p: OAuthProviderConfig): Promise<OpenIdClient.Configuration> {
    let c = this.configs.get(p.name);
    if (!c) {
      c = this.create(p);
      this.configs.set(p.name, c);
      c.catch(() => this.configs.delete(p.name));
    }
    return c.catch((e: Error) => {
      throw errors.serviceUnavailable(`oauth:${p.name}`, e.message);
    });
  }

  private async create(p: OAuthProviderConfig): Promise<OpenIdClient.Configuration> {
    const oc = await openidClient();
    const auth = p.clientSecret ? oc.ClientSecretBasic(p.clientSecret) : oc.None();
    if (p.driver === 'openid') {
      const insecure = insecureAllowed([p.issuerUrl]);
      return oc.discovery(new URL(p.issuerUrl!), p.clientId, undefined, auth, {
        ...(insecure ? { execute: [oc.allowInsecureRequests] } : {}),
        timeout: 10,
      });
    }
    const config = new oc.Configuration(
      { issuer: new URL(p.authorizeUrl!).origin, authorization_endpoint: p.authorizeUrl, token_endpoint: p.accessUrl, userinfo_endpoint: p.profileUrl },
      p.clientId,
      undefined,
      auth,
    );
    if (insecureAllowed([p.authorizeUrl, p.accessUrl, p.profileUrl])) oc.allowInsecureRequests(config);
    return config;
  }
}
