// The real gateway (startGateway) in its own process, in front of the URL given as argv[2] (revisions + items);
// argv[3] = the auth service's URL (its JWKS), default argv[2].
import { createLogger } from '@vellum/logger';
import { loadGatewayConfig } from '../src/config';
import { startGateway } from '../src/start';

const upstream = process.argv[2];
const auth = process.argv[3] ?? upstream;
const config = loadGatewayConfig({ PORT: '0', REVISIONS_URLS: upstream, ITEMS_URLS: upstream, AUTH_URLS: auth });
void startGateway(config, { logger: createLogger({ name: 'gateway', level: 'warn' }) }).then((g) => console.log(`listening ${g.url}`));
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
