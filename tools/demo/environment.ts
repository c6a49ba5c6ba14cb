/**
 * What the demo needs around the application: a broker, a built application, an input
 * topic, free ports; and how it gives back what it took.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Admin } from 'kafkajs';
import { ensureTopic } from '../../apps/event-generator/src/main';
import {
  runningBroker,
  startBroker,
  stopBroker,
  freePort,
  STATE_FILE,
} from '@nest-streams/testing/kafka';
import { StoppedError } from './http-probe';
import { signalGroup } from './processes';

/** The broker the demo runs against. */
export interface BrokerHandle {
  /** Bootstrap servers, comma-separated. */
  readonly brokers: string;
  /** `env`: KAFKA_BROKERS; `reused`: the checkout's running broker; `started`: by this run. */
  readonly source: 'env' | 'reused' | 'started';
}

/**
 * The cluster named by KAFKA_BROKERS, else the checkout's local broker: reused when it runs,
 * else started (`startBroker()` prints its progress while Maven resolves the jars).
 * `onStarting` is called just before a start, so a forced exit knows to kill it.
 */
export async function acquireBroker(
  log: (line: string) => void,
  onStarting: () => void = () => undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<BrokerHandle> {
  if (env.KAFKA_BROKERS) {
    log(`using the Kafka cluster of KAFKA_BROKERS=${env.KAFKA_BROKERS}`);
    return { brokers: env.KAFKA_BROKERS, source: 'env' };
  }
  const running = await runningBroker();
  if (running) {
    log(
      `reusing the local Kafka ${running.kafkaVersion} broker at ${running.brokers} (pid ${running.pid})`,
    );
    return { brokers: running.brokers, source: 'reused' };
  }
  log('starting the local Kafka broker (npm run kafka:start does the same)...');
  onStarting();
  const state = await startBroker({ log: (line) => log(`[kafka] ${line}`) });
  return { brokers: state.brokers, source: 'started' };
}

/** Stops the broker when this run started it; leaves any other alone. */
export async function releaseBroker(
  handle: BrokerHandle,
  log: (line: string) => void,
): Promise<void> {
  if (handle.source !== 'started') return;
  log('stopping the Kafka broker this demo started...');
  await stopBroker();
}

/**
 * SIGKILL to the local broker's process group, synchronously: for a forced exit while this
 * run was starting it or had started it. Its data is wiped by the next start.
 */
export function killLocalBrokerNow(): void {
  if (!existsSync(STATE_FILE)) return;
  try {
    const { pid } = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as { pid?: unknown };
    if (typeof pid === 'number' && pid > 0) signalGroup(pid, 'SIGKILL');
  } catch {
    // no state to act on
  }
}

/**
 * Runs `npm run build` in `repoRoot` when `entry` does not exist, and checks that it does
 * afterwards. Rejects with a message a user can act on.
 */
export async function ensureAppBuilt(
  entry: string,
  repoRoot: string,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  if (existsSync(entry)) return;
  log(`${entry} is missing: running npm run build...`);
  const code = await new Promise<number | null>((resolve, reject) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const child = spawn(npm, ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (exitCode) => resolve(exitCode));
  });
  if (signal?.aborted) throw new StoppedError();
  if (code !== 0) throw new Error(`npm run build failed (exit code ${code})`);
  if (!existsSync(entry)) {
    throw new Error(
      `npm run build did not produce ${entry}: is apps/order-stats in this checkout?`,
    );
  }
}

/** The input topic the demo uses. */
export interface InputTopic {
  readonly topic: string;
  readonly partitions: number;
  /** True when this run created it (and so deletes it at the end). */
  readonly created: boolean;
}

/**
 * Creates `wanted` with `partitions` partitions, or reuses it when it exists with that many
 * and holds no record. An existing topic with another partition count, or with records (from
 * an earlier run: the demo's fresh application id would read them from the start, and the
 * totals would not be this run's), is left alone and a fresh topic `<wanted>.demo-<stamp>`
 * is created instead.
 */
export async function prepareInputTopic(
  admin: Admin,
  wanted: string,
  partitions: number,
  stamp: string,
  log: (line: string) => void,
): Promise<InputTopic> {
  const status = await ensureTopic(admin, wanted, partitions);
  if (status.created) {
    log(`created topic ${wanted} (${partitions} partitions)`);
    return { topic: wanted, partitions, created: true };
  }
  if (status.partitions === partitions && status.records === 0) {
    log(`reusing the empty topic ${wanted} (${partitions} partitions)`);
    return { topic: wanted, partitions, created: false };
  }
  const fresh = `${wanted}.demo-${stamp}`;
  const why =
    status.partitions !== partitions
      ? `has ${status.partitions} partitions, not ${partitions}`
      : `already holds ${status.records} records`;
  await ensureTopic(admin, fresh, partitions);
  log(`topic ${wanted} ${why}: using a fresh topic ${fresh} (${partitions} partitions)`);
  return { topic: fresh, partitions, created: true };
}

/**
 * Deletes what a run left in Kafka: its input topic when it created it, the internal topics
 * of its application id (changelogs, repartition topics) and its consumer group. Best
 * effort: failures are logged, not thrown.
 */
export async function cleanupKafka(
  admin: Admin,
  run: { readonly applicationId: string; readonly createdTopic?: string },
  log: (line: string) => void,
): Promise<void> {
  try {
    const topics = (await admin.listTopics()).filter(
      (t) => t === run.createdTopic || t.startsWith(`${run.applicationId}-`),
    );
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 30_000 });
    const groups = (await admin.listGroups()).groups
      .map((g) => g.groupId)
      .filter((g) => g === run.applicationId || g.startsWith(`${run.applicationId}-`));
    if (groups.length > 0) await admin.deleteGroups(groups);
    log(`deleted ${topics.length} topic(s) and ${groups.length} consumer group(s) of this run`);
  } catch (error) {
    log(`could not clean up Kafka: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** True when nothing listens on `port` of the loopback interface (or of every interface). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * `count` distinct free loopback ports: the `preferred` ones where free (in order), the
 * others chosen by the OS.
 */
export async function choosePorts(
  count: number,
  preferred: readonly number[] = [],
  avoid: readonly number[] = [],
): Promise<number[]> {
  const chosen: number[] = [];
  const taken = new Set(avoid);
  for (let i = 0; i < count; i++) {
    const wish = preferred[i];
    if (wish !== undefined && !taken.has(wish) && (await portIsFree(wish))) {
      chosen.push(wish);
    } else {
      let port = await freePort();
      while (taken.has(port) || chosen.includes(port)) port = await freePort();
      chosen.push(port);
    }
    taken.add(chosen[i]);
  }
  return chosen;
}
