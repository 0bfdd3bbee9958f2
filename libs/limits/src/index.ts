export { type Limiter, type LimiterOptions, type LimitState } from './limiter';
export { createLimiterStore, type LimiterStore, type LimiterStoreKind, type LimiterStoreOptions } from './limiter-store';
export { rateLimit, requestLimiter, type RequestLimit, type RequestLimiterOptions } from './request-limiter';
