export { loadConfig, ConfigError, type Env } from './load-config';
export { duration, bool, int, list, url, parseDuration, trustProxy, type TrustProxy } from './parsers';
export { z } from 'zod';
