import { userSchema } from '@vellum/contracts';
import { parseBody } from '@vellum/http';
import { userRepository } from '../data/user.repository';
import type { AuthContext } from '../domain/context';
import { tfaUseCase } from '../domain/tfa.use-case';
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

type About = Pick<Command, 'name' | 'summary' | 'usage' | 'help'>;

/** `step` in the auth context; what it returns is printed (nothing when empty), exit 0. Errors: CliError. */
const inContext = (io: CliIo, step: (ctx: AuthContext) => Promise<string>) =>
  withAuthContext(io.env, async (ctx) => {
    const out = await step(ctx);
    if (out) io.out(out);
    return 0;
  });

/** A command taking the required --email and --password (checked before connecting) and `extra` options. */
const withCredentials = (
  about: About,
  extra: Command['options'],
  step: (ctx: AuthContext, email: string, password: string, values: Values) => Promise<string>,
): Command => ({
  ...about,
  options: { ...credentialOptions, ...extra },
  async run(values, io) {
    const email = required(values, 'email');
    const password = required(values, 'password');
    return inContext(io, (ctx) => step(ctx, email, password, values));
  },
});

const createCommand = (admin: boolean): Command =>
  withCredentials(
    {
      name: admin ? 'create-admin' : 'create-user',
      summary: admin ? 'create a user with the administrator role' : 'create a user (active unless --status says otherwise)',
      usage: admin ? '--email <e-mail> --password <password>' : '--email <e-mail> --password <password> [--role <id|name>] [--status <status>]',
      help: 'The password must meet the password policy (AUTH_PASSWORD_POLICY). Goes through the same checks, hashing and events as POST /users.',
    },
    admin ? {} : { role: { type: 'string' }, status: { type: 'string' } },
    async (ctx, email, password, values) => {
      const role = await roleId(ctx, values.role as string | undefined, admin);
      const input = { email, password, role, ...(values.status ? { status: values.status } : {}) };
      const u = await asCliError(() => usersUseCase.create(ctx, parseBody(userSchema, input), systemActor));
      return `created ${u.id} ${email}${admin ? ' (administrator)' : ''}`;
    },
  );

const setPassword = withCredentials(
  {
    name: 'set-password',
    summary: "reset a user's password (ends none of their sessions; use the API to suspend)",
    usage: '--email <e-mail> --password <new password>',
    help: 'The password must meet the password policy. Writes an audit event like PATCH /users/:id.',
  },
  {},
  async (ctx, email, password) => {
    const user = await userRepository.findByEmail(ctx.pg, email);
    if (!user) throw new CliError(`no user with e-mail "${email}"`);
    await asCliError(() => usersUseCase.update(ctx, user.id, { password }, systemActor));
    return `password set for ${email}`;
  },
);

const resetTfa: Command = {
  name: 'reset-tfa',
  summary: "turn a user's two-factor authentication off (a lost authenticator); they sign in with the password and may enrol again",
  usage: '--email <e-mail>',
  help: 'The same as POST /users/:id/tfa/reset: no code asked, an audit event written.',
  options: { email: { type: 'string' } },
  async run(values, io) {
    const email = required(values, 'email');
    return inContext(io, async (ctx) => {
      const user = await userRepository.findByEmail(ctx.pg, email);
      if (!user) throw new CliError(`no user with e-mail "${email}"`);
      await asCliError(() => tfaUseCase.reset(ctx, user.id, systemActor));
      return `two-factor authentication reset for ${email}`;
    });
  },
};

const list: Command = {
  name: 'list',
  summary: 'list users: id, e-mail, status, role (tab-separated)',
  usage: '',
  help: 'Oldest first.',
  options: {},
  run: (_values, io) =>
    inContext(io, async (ctx) => {
      const users = await ctx.db.user.findMany({ include: { role: true }, orderBy: { created_at: 'asc' } });
      return users.map((u) => [u.id, u.email ?? '', u.status, u.role?.name ?? '-'].join('\t')).join('\n');
    }),
};

export const userCommands: Command[] = [createCommand(false), createCommand(true), setPassword, resetTfa, list];
