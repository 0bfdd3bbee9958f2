export { loadLocalConfig, type LocalConfig } from './config';
export { startPlatform, DATABASES, type Platform, type StartPlatformOptions } from './platform';
export { createEmbeddedMessaging } from './embedded-messaging';
