import { join } from 'node:path';
import { EventData } from '../harness/event-data';
import type { RunContext } from '../harness/run-context';
import type { ScenarioSizes } from './scenario';

/** A run's input, produced and ready. */
export interface ScenarioInput {
  readonly data: EventData;
  readonly topic: string;
  /** The events as `key\tvalue` lines (for the RocksDB ceiling). */
  readonly eventsFile: string;
  readonly valueBytes: number;
  readonly partitions: number;
  readonly params: Readonly<Record<string, unknown>>;
}

const FIVE_MINUTES = 5 * 60_000;

/**
 * Generates the run's events from the seed (timestamps over the last 55 minutes, aligned to a
 * 5-minute boundary, all within a 1-hour window retention), creates the input topic with the
 * scenario's partitions and produces every event to it, once for all systems.
 */
export async function prepareInput(
  ctx: RunContext,
  defaults: ScenarioSizes,
  options: { distinctKeys?: boolean } = {},
): Promise<ScenarioInput> {
  const events = ctx.options.events ?? defaults.events;
  const keys = options.distinctKeys ? events : (ctx.options.keys ?? defaults.keys);
  const partitions = ctx.options.partitions ?? defaults.partitions;
  const spanMs = 50 * 60_000;
  const startTimestampMs = Math.floor(Date.now() / FIVE_MINUTES) * FIVE_MINUTES - 55 * 60_000;
  ctx.log(
    `generating ${events.toLocaleString('en-US')} events over ${keys.toLocaleString('en-US')} keys (seed ${ctx.options.seed})...`,
  );
  const data = new EventData({
    events,
    keys,
    seed: ctx.options.seed,
    startTimestampMs,
    spanMs,
    distinctKeys: options.distinctKeys,
  });
  const topic = `${ctx.runPrefix}-input`;
  await ctx.topics.createTopic(topic, partitions);
  ctx.log(`producing them to ${topic} (${partitions} partitions)...`);
  const produceSeconds = await ctx.topics.produce(topic, data);
  const inTopic = await ctx.topics.recordCount(topic);
  if (inTopic !== events)
    throw new Error(`the input topic holds ${inTopic} records, expected ${events}`);
  ctx.log(
    `produced in ${produceSeconds.toFixed(1)} s (${Math.round(events / produceSeconds).toLocaleString('en-US')} events/s)`,
  );
  const eventsFile = join(ctx.workDir, 'events.tsv');
  await data.writeFile(eventsFile);
  return {
    data,
    topic,
    eventsFile,
    valueBytes: data.totalValueBytes(),
    partitions,
    params: {
      events,
      keys,
      distinctKeys: options.distinctKeys ?? false,
      partitions,
      seed: ctx.options.seed,
      firstEventTimestampMs: startTimestampMs,
      eventTimeSpanMs: spanMs,
      amounts: 'integer cents 1..9999',
      produceSeconds: Math.round(produceSeconds * 100) / 100,
    },
  };
}
