import type { KafkaClientName } from '@nest-streams/streams';

/** The `--systems` names of our engine, one per Kafka client it can run on. */
export type EngineSystem = 'ours' | 'ours-kafkajs';

/** Our engine on one Kafka client (`streams.kafkaClient`): its system name and row label. */
export interface OurEngine {
  readonly system: EngineSystem;
  readonly client: KafkaClientName;
  /** `nest-streams (kafkajs)`: the row labels of scenarios without a guarantee in them. */
  readonly label: string;
  /** Short and file-safe, for application ids, state dirs and dump files: `ours`, `ours-kafkajs`. */
  readonly tag: string;
}

/** The engine name in every row label. */
export const NEST_STREAMS = 'nest-streams';

/**
 * Our engine on each client: the engine's default, @platformatic/kafka (`ours`), first, then
 * kafkajs (`ours-kafkajs`). Until the default changed, `ours` was kafkajs and the other
 * `ours-platformatic` (docs/performance.md's earlier sections use those names).
 */
export const OUR_ENGINES: readonly OurEngine[] = [
  {
    system: 'ours',
    client: '@platformatic/kafka',
    label: `${NEST_STREAMS} (@platformatic/kafka)`,
    tag: 'ours',
  },
  {
    system: 'ours-kafkajs',
    client: 'kafkajs',
    label: `${NEST_STREAMS} (kafkajs)`,
    tag: 'ours-kafkajs',
  },
];

/** The system names the default's change retired, and what to write instead. */
export const RENAMED_SYSTEMS: Readonly<Record<string, string>> = {
  'ours-platformatic': "'ours' (the engine on its default client, @platformatic/kafka)",
};

/** The client names `--baseline-client` accepts (the engine's `KAFKA_CLIENT_NAMES`). */
export const CLIENT_NAMES: readonly KafkaClientName[] = OUR_ENGINES.map((e) => e.client);

/** Our engines `--systems` selected, in {@link OUR_ENGINES} order. */
export function selectedEngines(systems: readonly string[]): OurEngine[] {
  return OUR_ENGINES.filter((engine) => systems.includes(engine.system));
}

/** Our engine on `client`. */
export function engineOn(client: KafkaClientName): OurEngine {
  const engine = OUR_ENGINES.find((e) => e.client === client);
  if (!engine) throw new Error(`no engine system for client ${client}`);
  return engine;
}

/**
 * A stream processor's row label with its variant (a processing guarantee) and, for our
 * engine, its client, as DESIGN.md's JSON names them: `nest-streams at_least_once (kafkajs)`,
 * `kafka-streams-java at_least_once`.
 */
export function variantLabel(name: string, variant: string, client?: KafkaClientName): string {
  return `${name} ${variant}${client === undefined ? '' : ` (${client})`}`;
}

/**
 * The worker arguments choosing the engine's client: none for kafkajs (the workers' client when
 * the option is absent), so that a `--baseline` checkout older than the option still runs its
 * kafkajs rows.
 */
export function clientArgs(client: KafkaClientName | undefined): string[] {
  return client === undefined || client === 'kafkajs' ? [] : ['--kafka-client', client];
}
