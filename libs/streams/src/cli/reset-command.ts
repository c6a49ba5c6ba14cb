// `nest-streams reset`: the command line of an application reset, with the options of Kafka's
// `kafka-streams-application-reset`.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { KafkaClientName } from '../client/kafka-client-settings';
import { StreamsConfigError } from '../errors/streams-config.error';
import type { ApplicationResetReport } from '../reset/application-reset';
import type { ApplicationResetOptions } from '../reset/reset-application';
import { DEFAULT_KAFKA_CLIENT, KAFKA_CLIENT_NAMES } from '../runtime/streams-config';
import {
  parseResetDatetime,
  parseResetDuration,
  type ResetPosition,
} from '../reset/reset-position';

/** The usage text of `nest-streams reset`. */
export const RESET_USAGE = `Usage: nest-streams reset --application-id <id> [options]

Resets a stopped application so that its next start reprocesses its input: moves the
committed offsets of its input topics, deletes its internal topics (changelogs,
repartition topics) and, with --state-dir, its local state. Refuses while the
application's consumer group has members.

Options:
  --application-id <id>        the application's application.id (required)
  --bootstrap-server <hosts>   host:port[,host:port...]; default $KAFKA_BROKERS
  --input-topics <a,b>         the input topics whose offsets are reset
  --to-earliest                to each partition's first offset (the default)
  --to-latest                  to each partition's end (skip everything so far)
  --to-datetime <t>            to the first record at or after t (2026-12-06T08:00:00Z)
  --by-duration <d>            to the first record at or after now minus d (PT1H, P2D)
  --to-offset <n>              to offset n in every partition
  --state-dir <dir>            also delete this machine's local state under dir
  --client <name>              @platformatic/kafka (default) or kafkajs
  --config-file <file>         JSON of connection settings (ssl, sasl) in kafkajs' shape
  --dry-run                    only print what would be done
  --help                       this text
`;

const OPTIONS = {
  'application-id': { type: 'string' },
  'bootstrap-server': { type: 'string' },
  'input-topics': { type: 'string' },
  'to-earliest': { type: 'boolean' },
  'to-latest': { type: 'boolean' },
  'to-datetime': { type: 'string' },
  'by-duration': { type: 'string' },
  'to-offset': { type: 'string' },
  'state-dir': { type: 'string' },
  client: { type: 'string' },
  'config-file': { type: 'string' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

const list = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

/**
 * The reset the arguments (after `reset`) ask for; `'help'` for `--help`.
 *
 * @throws StreamsConfigError naming the problem (an unknown option, no application id or
 *   brokers, two positions, a bad date-time or duration, an unknown client, an unreadable
 *   config file): fix the command line.
 */
export function parseResetArguments(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): ApplicationResetOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true }));
  } catch (error) {
    throw new StreamsConfigError((error as Error).message);
  }
  if (values.help) return 'help';
  const applicationId = values['application-id'];
  if (!applicationId) throw new StreamsConfigError('--application-id is required');
  const bootstrapServers = list(values['bootstrap-server'] ?? env.KAFKA_BROKERS);
  if (bootstrapServers.length === 0) {
    throw new StreamsConfigError('--bootstrap-server is required (or set KAFKA_BROKERS)');
  }
  const client = values.client ?? DEFAULT_KAFKA_CLIENT;
  if (!KAFKA_CLIENT_NAMES.includes(client as KafkaClientName)) {
    throw new StreamsConfigError(
      `--client must be one of ${KAFKA_CLIENT_NAMES.join(', ')}, got '${client}'`,
    );
  }
  return {
    applicationId,
    bootstrapServers,
    kafkaClient: client as KafkaClientName,
    inputTopics: list(values['input-topics']),
    position: resetPosition(values),
    dryRun: values['dry-run'] ?? false,
    ...(values['state-dir'] !== undefined && { stateDir: values['state-dir'] }),
    ...(values['config-file'] !== undefined && { kafka: readConfigFile(values['config-file']) }),
  };
}

function resetPosition(values: {
  'to-earliest'?: boolean;
  'to-latest'?: boolean;
  'to-datetime'?: string;
  'by-duration'?: string;
  'to-offset'?: string;
}): ResetPosition {
  const chosen: ResetPosition[] = [];
  if (values['to-earliest']) chosen.push({ to: 'earliest' });
  if (values['to-latest']) chosen.push({ to: 'latest' });
  if (values['to-datetime'] !== undefined) {
    chosen.push({ to: 'datetime', timestamp: parseResetDatetime(values['to-datetime']) });
  }
  if (values['by-duration'] !== undefined) {
    chosen.push({ to: 'duration', durationMs: parseResetDuration(values['by-duration']) });
  }
  if (values['to-offset'] !== undefined) {
    const offset = Number(values['to-offset']);
    if (!Number.isSafeInteger(offset) || offset < 0) {
      throw new StreamsConfigError(
        `--to-offset must be an offset (0 or more), got '${values['to-offset']}'`,
      );
    }
    chosen.push({ to: 'offset', offset });
  }
  if (chosen.length > 1) {
    throw new StreamsConfigError(
      'give one of --to-earliest, --to-latest, --to-datetime, --by-duration, --to-offset',
    );
  }
  return chosen[0] ?? { to: 'earliest' };
}

function readConfigFile(file: string): ApplicationResetOptions['kafka'] {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ApplicationResetOptions['kafka'];
  } catch (error) {
    throw new StreamsConfigError(`--config-file ${file}: ${(error as Error).message}`);
  }
}

/** The report of a reset as the command prints it. */
export function formatResetReport(report: ApplicationResetReport): string {
  const would = report.dryRun ? 'that would be ' : '';
  const lines = [
    report.dryRun
      ? `Dry run for application ${report.applicationId}: nothing was changed.`
      : `Reset application ${report.applicationId}.`,
    report.inputOffsets.length === 0
      ? 'Input offsets: none (no input topics given or found).'
      : `Input offsets ${would}committed (topic-partition: before -> after):`,
    ...report.inputOffsets.map(
      (o) => `  ${o.topic}-${o.partition}: ${o.from ?? 'none'} -> ${o.to}`,
    ),
  ];
  if (report.missingInputTopics.length > 0) {
    lines.push(`Input topics not found (skipped): ${report.missingInputTopics.join(', ')}`);
  }
  lines.push(
    report.deletedTopics.length === 0
      ? 'Internal topics: none found.'
      : `Internal topics ${would}deleted: ${report.deletedTopics.join(', ')}`,
  );
  if (report.cleanedStateDir !== undefined) {
    lines.push(`Local state ${would}deleted: the task directories of ${report.cleanedStateDir}`);
  }
  return `${lines.join('\n')}\n`;
}
