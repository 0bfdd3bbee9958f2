// The real gateway (startGateway) in its own process, in front of the URL given as argv[2].
import { createLogger } from '@vellum/logger';
import { loadGatewayConfig } from '../src/config';
import { startGateway } from '../src/start';

const upstream = process.argv[2];
const config = loadGatewayConfig({ PORT: '0', REVISIONS_URLS: upstream, AUTH_URLS: upstream });
void startGateway(config, { logger: createLogger({ name: 'gateway', level: 'warn' }) }).then((g) => console.log(`listening ${g.url}`));
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
