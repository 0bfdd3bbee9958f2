export { loadConfig, ConfigError, type Env } from './load-config';
export { duration, bool, int, list, url, parseDuration, trustProxy, type TrustProxy } from './parsers';
export { z } from 'zod';
export { loadMessagingSettings, loadOptionalMessagingSettings, MESSAGING_VARIABLES, type MessagingSettings } from './messaging-settings';
export { processVariables, databaseServiceVariables, queryLimitVariables, rateLimiterVariables, sessionCookieVariables } from './service-variables';
