import type { RequestHandler, Request } from 'express';
import type { AccessTokenClaims } from '@vellum/tokens';
import { sendJson } from '@vellum/http';

/** The Vellum release the gateway reports to admins (Directus answers its own version there). */
const VELLUM_VERSION = '0.1.0';

interface ServerInfoSettings {
  projectName: string;
  projectDescriptor?: string;
  projectColor?: string;
  defaultLanguage: string;
  /** The rate limit clients are held to (false when off). */
  rateLimit: false | { points: number; duration: number };
  queryLimit: { default: number; max: number };
}

/**
 * `GET /server/info` as Directus answers it (`@directus/sdk` `serverInfo()`): the project basics for anyone,
 * rate and query limits for signed-in users, and the version for admins. Nothing about the infrastructure.
 */
export function serverInfoHandler(s: ServerInfoSettings, claimsOf: (req: Request) => Promise<AccessTokenClaims | undefined>): RequestHandler {
  const project = {
    project_name: s.projectName,
    project_descriptor: s.projectDescriptor ?? null,
    project_logo: null,
    project_color: s.projectColor ?? null,
    default_language: s.defaultLanguage,
    public_foreground: null,
    public_background: null,
    public_note: null,
    custom_css: null,
    public_registration: false,
    public_registration_verify_email: true,
  };
  return async (req, res) => {
    const claims = await claimsOf(req);
    const data: Record<string, unknown> = { project };
    if (claims) {
      data.rateLimit = s.rateLimit;
      data.rateLimitGlobal = false;
      data.queryLimit = s.queryLimit;
      data.websocket = false;
      data.extensions = { limit: null };
    }
    if (claims?.admin_access) data.version = VELLUM_VERSION;
    res.setHeader('Cache-Control', 'no-store');
    sendJson(res, { data });
  };
}
