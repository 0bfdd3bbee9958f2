// Admin CLI: node --import tsx services/auth/src/cli.ts <command> [--flags]
//   create-user --email a@b.co --password … [--role <role id or name>] [--status active]
//   set-password --email a@b.co --password …
//   list
// Writes go through the same use cases as the API (policy, hashing, outbox events).
import { parseArgs } from 'node:util';
import { userSchema } from '@vellum/contracts';
import { parseBody } from '@vellum/http';
import { createLogger } from '@vellum/logger';
import { createApp } from './app';
import { loadAuthConfig } from './config';
import { createPrisma } from './data/prisma';
import { loadSigningKeys } from './data/signing-keys';
import { userRepository } from './data/user.repository';
import { usersUseCase } from './domain/users.use-case';
import { systemActor } from './events/auth-events';

const USAGE = `usage: cli.ts create-user --email <e> --password <p> [--role <id|name>] [--status <s>]
       cli.ts set-password --email <e> --password <p>
       cli.ts list`;

export async function runCli(argv: string[], out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string' }, status: { type: 'string' } },
  });
  const command = positionals[0];
  if (!['create-user', 'set-password', 'list'].includes(command ?? '')) {
    out(USAGE);
    return 2;
  }
  const config = loadAuthConfig();
  const db = createPrisma(config.DATABASE_URL, 2);
  const built = createApp({ db, config, keys: loadSigningKeys(config), logger: createLogger({ name: 'auth-cli', level: 'warn' }) });
  const ctx = built.ctx;
  try {
    if (command === 'list') {
      const users = await db.user.findMany({ include: { role: true }, orderBy: { created_at: 'asc' } });
      for (const u of users) out([u.id, u.email ?? '', u.status, u.role?.name ?? '-'].join('\t'));
      return 0;
    }
    if (!values.email || !values.password) {
      out(USAGE);
      return 2;
    }
    if (command === 'create-user') {
      let role: string | null = null;
      if (values.role) {
        const r = await db.role.findFirst({ where: /^[0-9a-f-]{36}$/i.test(values.role) ? { id: values.role } : { name: values.role } });
        if (!r) throw new Error(`no role "${values.role}"`);
        role = r.id;
      }
      const input = { email: values.email, password: values.password, role, ...(values.status ? { status: values.status } : {}) };
      const u = await usersUseCase.create(ctx, parseBody(userSchema, input), systemActor);
      out(`created ${u.id} ${values.email}`);
      return 0;
    }
    const user = await userRepository.findByEmail(ctx.pg, values.email);
    if (!user) throw new Error(`no user "${values.email}"`);
    await usersUseCase.update(ctx, user.id, { password: values.password }, systemActor);
    out(`password set for ${values.email}`);
    return 0;
  } catch (e) {
    const err = e as Error & { extensions?: Record<string, unknown> };
    out(`error: ${err.message}${err.extensions ? ` ${JSON.stringify(err.extensions)}` : ''}`);
    return 1;
  } finally {
    await built.close();
    await db.$disconnect();
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
