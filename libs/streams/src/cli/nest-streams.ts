// The `nest-streams` command (bin/nest-streams.js runs it): operations on an application from
// the command line, without the Kafka distribution.
import { StreamsConfigError } from '../errors/streams-config.error';
import { StreamsError } from '../errors/streams.error';
import { resetApplication, type ApplicationResetOptions } from '../reset/reset-application';
import type { ApplicationResetReport } from '../reset/application-reset';
import { formatResetReport, parseResetArguments, RESET_USAGE } from './reset-command';

const USAGE = `Usage: nest-streams <command> [options]

Commands:
  reset    reset a stopped application to reprocess its input (nest-streams reset --help)
`;

/** Where the command writes, and what it runs a reset with (a test gives its own). */
export interface CommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly reset: (options: ApplicationResetOptions) => Promise<ApplicationResetReport>;
}

const processIo: CommandIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  reset: resetApplication,
};

/**
 * Runs `nest-streams <argv>` and resolves to its exit code: 0 done; 1 the operation failed (its
 * error on stderr: an `ApplicationActiveError` says to stop the instances first, a connection
 * error to check the brokers); 2 a usage error (the problem and the usage on stderr). Never
 * rejects.
 */
export async function runNestStreams(
  argv: readonly string[],
  io: CommandIo = processIo,
): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === 'help') {
    (command === undefined ? io.err : io.out)(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'reset') {
    io.err(`unknown command '${command}'\n\n${USAGE}`);
    return 2;
  }
  let options: ApplicationResetOptions | 'help';
  try {
    options = parseResetArguments(rest, io.env);
  } catch (error) {
    if (!(error instanceof StreamsConfigError)) throw error;
    io.err(`${error.message}\n\n${RESET_USAGE}`);
    return 2;
  }
  if (options === 'help') {
    io.out(RESET_USAGE);
    return 0;
  }
  try {
    io.out(formatResetReport(await io.reset(options)));
    return 0;
  } catch (error) {
    const name = error instanceof StreamsError ? `${error.name} (${error.code})` : 'Error';
    io.err(`reset failed: ${name}: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
}
