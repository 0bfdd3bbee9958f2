export { loadGatewayConfig, type GatewayConfig } from './config';
export { createGateway, type Gateway, type GatewayDeps } from './app';
export { startGateway, type StartGatewayDeps } from './start';
