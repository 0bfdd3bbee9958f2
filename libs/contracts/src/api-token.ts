import { z } from 'zod';

/**
 * One valid API token in the API-tokens map (published by auth): whose it is and what it may do — the token's
 * effective role (its narrower role, or the user's) — and when it expires (null: never, a static token).
 * Never the secret: the map's key is its SHA-256.
 */
export const apiTokenEntrySchema = z.object({
  id: z.string(),
  user: z.string(),
  role: z.string().nullable(),
  admin: z.boolean(),
  app: z.boolean(),
  expires_at: z.string().nullable(),
});
export type ApiTokenEntry = z.infer<typeof apiTokenEntrySchema>;

/** What a token use report carries (API_TOKEN_USES_BUCKET, key = token id). */
export const apiTokenUseSchema = z.object({ at: z.string() });
export type ApiTokenUse = z.infer<typeof apiTokenUseSchema>;
