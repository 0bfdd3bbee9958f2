// The admin CLI: `npm run admin -- <command> [flags]` (or `node services/auth/dist/cli.js …` in an image).
// Reads the auth service's configuration from the environment (DATABASE_URL, AUTH_PRIVATE_KEY, …).
// `help` lists the commands; `<command> --help` explains one. Exit codes: 0 done, 1 failed, 2 usage.
import { parseArgs } from 'node:util';
import { CliError, type CliIo, type Command } from './cli/command';
import { processEnv } from './config';
import { keyCommands } from './cli/key-commands';
import { userCommands } from './cli/user-commands';

export const COMMANDS: Command[] = [...userCommands, ...keyCommands];

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'usage: npm run admin -- <command> [flags]      (in an image: node services/auth/dist/cli.js <command> …)',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Every command reads the auth service configuration from the environment. <command> --help for its flags.',
  ].join('\n');
}

const usageOf = (c: Command) => `usage: npm run admin -- ${c.name}${c.usage ? ` ${c.usage}` : ''}`;

export async function runCli(argv: string[], io: Partial<CliIo> = {}): Promise<number> {
  const out = io.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const env = io.env ?? processEnv();
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    out(overview());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    out(`error: unknown command "${name}"\n\n${overview()}`);
    return 2;
  }
  try {
    const { values } = parseArgs({ args: rest, options: { ...command.options, help: { type: 'boolean', short: 'h' } }, strict: true });
    if (values.help) {
      out(`${usageOf(command)}\n\n${command.summary}.\n${command.help}`);
      return 0;
    }
    return await command.run(values, { out, env });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (e instanceof CliError) {
      out(`error: ${e.message}${e.exitCode === 2 ? `\n${usageOf(command)}` : ''}`);
      return e.exitCode;
    }
    if (code?.startsWith('ERR_PARSE_ARGS')) {
      out(`error: ${(e as Error).message}\n${usageOf(command)}`);
      return 2;
    }
    out(`error: ${(e as Error).message.replace(/\s*\n\s*/g, ' ')}`);
    return 1;
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
