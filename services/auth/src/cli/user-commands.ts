import { userSchema } from '@vellum/contracts';
import { parseBody } from '@vellum/http';
import { userRepository } from '../data/user.repository';
import type { AuthContext } from '../domain/context';
import { usersUseCase } from '../domain/users.use-case';
import { systemActor } from '../domain/auth-messages';
import { withAuthContext } from './auth-context';
import { CliError, required, type CliIo, type Command, type Values } from './command';

/** The message of a contract error (the API's envelope) or of anything else, on one line. */
const oneLine = (e: unknown) => {
  const err = e as Error & { extensions?: { code?: string; reason?: string } };
  const reason = err.extensions?.reason ? ` (${err.extensions.reason})` : '';
  return `${err.message}${reason}${err.extensions?.code ? ` [${err.extensions.code}]` : ''}`.replace(/\s*\n\s*/g, ' ');
};

/** What a use case refuses (policy, duplicate e-mail…) becomes the command's error, on one line. */
async function asCliError<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    throw new CliError(oneLine(e));
  }
}

async function roleId(ctx: AuthContext, role: string | undefined, admin: boolean): Promise<string | null> {
  if (admin) {
    const r = await ctx.db.role.findFirst({ where: { admin_access: true }, orderBy: { name: 'asc' } });
    if (!r) throw new CliError('there is no role with admin access (start the auth service once to create it)');
    return r.id;
  }
  if (!role) return null;
  const r = await ctx.db.role.findFirst({ where: /^[0-9a-f-]{36}$/i.test(role) ? { id: role } : { name: role } });
  if (!r) throw new CliError(`no role "${role}" (give its id or its exact name)`);
  return r.id;
}

const credentialOptions = { email: { type: 'string' }, password: { type: 'string' } } as const;

/** The required --email and --password, then `step` with the auth context. */
async function withCredentials(values: Values, io: CliIo, step: (ctx: AuthContext, email: string, password: string) => Promise<number>): Promise<number> {
  const email = required(values, 'email');
  const password = required(values, 'password');
  return withAuthContext(io.env, (ctx) => step(ctx, email, password));
}

function createCommand(admin: boolean): Command {
  return {
    name: admin ? 'create-admin' : 'create-user',
    summary: admin ? 'create a user with the administrator role' : 'create a user (active unless --status says otherwise)',
    usage: admin ? '--email <e-mail> --password <password>' : '--email <e-mail> --password <password> [--role <id|name>] [--status <status>]',
    help: 'The password must meet the password policy (AUTH_PASSWORD_POLICY). Goes through the same checks, hashing and events as POST /users.',
    options: { ...credentialOptions, ...(admin ? {} : { role: { type: 'string' }, status: { type: 'string' } }) },
    run: (values, io) =>
      withCredentials(values, io, async (ctx, email, password) => {
        const role = await roleId(ctx, values.role as string | undefined, admin);
        const input = { email, password, role, ...(values.status ? { status: values.status } : {}) };
        const u = await asCliError(() => usersUseCase.create(ctx, parseBody(userSchema, input), systemActor));
        io.out(`created ${u.id} ${email}${admin ? ' (administrator)' : ''}`);
        return 0;
      }),
  };
}

const setPassword: Command = {
  name: 'set-password',
  summary: "reset a user's password (ends none of their sessions; use the API to suspend)",
  usage: '--email <e-mail> --password <new password>',
  help: 'The password must meet the password policy. Writes an audit event like PATCH /users/:id.',
  options: credentialOptions,
  run: (values, io) =>
    withCredentials(values, io, async (ctx, email, password) => {
      const user = await userRepository.findByEmail(ctx.pg, email);
      if (!user) throw new CliError(`no user with e-mail "${email}"`);
      await asCliError(() => usersUseCase.update(ctx, user.id, { password }, systemActor));
      io.out(`password set for ${email}`);
      return 0;
    }),
};

const list: Command = {
  name: 'list',
  summary: 'list users: id, e-mail, status, role (tab-separated)',
  usage: '',
  help: 'Oldest first.',
  options: {},
  async run(_values, io) {
    return withAuthContext(io.env, async (ctx) => {
      const users = await ctx.db.user.findMany({ include: { role: true }, orderBy: { created_at: 'asc' } });
      for (const u of users) io.out([u.id, u.email ?? '', u.status, u.role?.name ?? '-'].join('\t'));
      return 0;
    });
  },
};

export const userCommands: Command[] = [createCommand(false), createCommand(true), setPassword, list];
