// A real OpenID provider (npm oidc-provider, ESM-only) on loopback for the auth service's tests, run as a child
// process: `node provider.mjs '<json options>'`. Prints {"issuer": "..."} on stdout once listening.
// Options: { clients: [...] }. Accounts: any login; the account id is the login, its e-mail `<login>@example.com`
// (or the login itself when it has an "@"), email_verified false for logins starting with "unverified".
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const options = JSON.parse(process.argv[2] ?? '{}');
const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: options.clients,
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
  async findAccount(_ctx, id) {
    return {
      accountId: id,
      async claims() {
        return {
          sub: id,
          email: id.includes('@') ? id : `${id}@example.com`,
          email_verified: !id.startsWith('unverified'),
          given_name: 'Olive',
          family_name: 'Idp',
        };
      },
    };
  },
  features: { devInteractions: { enabled: true } },
  cookies: { keys: ['test-cookie-key'] },
});
provider.on('server_error', (_ctx, err) => process.stderr.write(`oidc-provider server_error: ${err.stack}\n`));
server.on('request', provider.callback());
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
