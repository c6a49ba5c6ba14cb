import { type KafkaStreams, KafkaStreamsState } from '@nest-streams/streams';
// After the engine, which installs its kafkajs fixes before kafkajs loads.
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { committedAll, endOffsets, sleep } from './worker-support';

/** What a worker measures its run against: the input's end offsets, read before it starts. */
export interface InputProbe {
  readonly admin: Admin;
  readonly ends: ReadonlyMap<number, number>;
  /** Records in the input (the sum of its end offsets). */
  readonly records: number;
}

/** Connects an admin client of the worker's group and reads the input's end offsets. */
export async function probeInput(
  brokers: readonly string[],
  groupId: string,
  input: string,
): Promise<InputProbe> {
  const admin = new Kafka({
    clientId: `${groupId}-probe`,
    brokers: [...brokers],
    logLevel: logLevel.ERROR,
  }).admin();
  await admin.connect();
  const ends = await endOffsets(admin, input);
  return { admin, ends, records: [...ends.values()].reduce((a, b) => a + b, 0) };
}

/**
 * Starts `streams`, waits until its group has committed the whole input and it is RUNNING,
 * then disconnects the probe. Returns the seconds from `start()` to the last commit.
 *
 * @throws Error when the client goes to ERROR or the input is not committed (or the client not
 *   RUNNING) within `timeoutMs`: the run failed and reports no figure.
 */
export async function startAndDrain(
  streams: KafkaStreams,
  probe: InputProbe,
  groupId: string,
  input: string,
  timeoutMs: number,
): Promise<number> {
  let failed: string | undefined;
  streams.onStateChange((now) => {
    if (now === KafkaStreamsState.ERROR || now === KafkaStreamsState.PENDING_ERROR) {
      failed ??= `state ${now}`;
    }
  });
  const deadline = Date.now() + timeoutMs;
  const started = performance.now();
  await streams.start();
  while (!failed && !(await committedAll(probe.admin, groupId, input, probe.ends))) {
    if (Date.now() > deadline) throw new Error(`input not committed within ${timeoutMs} ms`);
    await sleep(100);
  }
  const seconds = (performance.now() - started) / 1000;
  while (!failed && streams.state !== KafkaStreamsState.RUNNING) {
    if (Date.now() > deadline) throw new Error('not RUNNING');
    await sleep(20);
  }
  if (failed) throw new Error(`processing failed: ${failed}`);
  await probe.admin.disconnect();
  return seconds;
}
