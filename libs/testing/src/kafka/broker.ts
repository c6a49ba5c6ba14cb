import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrokerToolError } from './broker-error';
import {
  newClusterId,
  reusableBrokerLayout,
  writeBrokerLayout,
  type SavedBrokerLayout,
} from './broker-layout';
import { distinctFreePorts, portIsFree } from './free-port';
import { formatKafkaStorage, kafkaJvm, kafkaJvmArgs, kafkaLogTail, spawnKafka } from './kafka-jvm';
import { answersMetadata } from './metadata-probe';
import { isAlive, signalGroup, sleep } from './node-process';
import { CONSOLE_LOG, DATA_DIR, KAFKA_HOME, LOGS_DIR, SERVER_LOG, STATE_FILE } from './paths';
import { scramFormatArgs, type SaslSslListener } from './sasl-ssl-listener';
import { serverProperties } from './server-properties';

/** What a running local broker left in .kafka/broker.json. */
export interface BrokerState {
  pid: number;
  brokers: string;
  /** The SASL_SSL listener's `host:port`, when the broker has one. */
  saslSslBrokers?: string;
  kafkaVersion: string;
  startedAt: string;
}

export interface StartOptions {
  /** Progress lines (jar resolution, start-up); defaults to stderr. */
  log?: (line: string) => void;
  /** How long to wait for the broker to answer a metadata request. */
  timeoutMs?: number;
  /**
   * Restart on the previous ports with the previous data when this home holds a broker that
   * was stopped with `keepData` or died (see broker-layout.ts); otherwise start afresh. Off by
   * default: a start wipes the data and picks new ports.
   */
  reuseData?: boolean;
  /**
   * Also listen with SASL_SSL (TLS, SASL PLAIN and SCRAM-SHA-512) on a port of its own, with
   * these users and this keystore; the PLAINTEXT listener stays. Only for a fresh start.
   */
  saslSsl?: SaslSslListener;
}

/** Options of {@link stopBroker}. */
export interface StopOptions {
  /** How long SIGTERM may take before SIGKILL; default 20 s. */
  graceMs?: number;
  /** Keep the data (and the ports' record) for a later `startBroker({ reuseData: true })`. */
  keepData?: boolean;
}

const defaultLog = (line: string): void => {
  process.stderr.write(`[kafka] ${line}\n`);
};

/**
 * Starts the project's local single-node KRaft broker, or reuses the one already running, and
 * returns its state (`brokers` is the bootstrap `host:port`). Idempotent: a second call while
 * the broker runs returns the same address without starting anything.
 *
 * Throws a {@link BrokerToolError} when Java or Maven is missing, the jars cannot be resolved,
 * or the broker dies or does not answer in time (with the tail of its log in `details`).
 */
export async function startBroker(options: StartOptions = {}): Promise<BrokerState> {
  const log = options.log ?? defaultLog;
  const running = await runningBroker();
  if (running && options.saslSsl && !running.saslSslBrokers) {
    throw new BrokerToolError(
      `The broker of ${KAFKA_HOME} runs without a SASL_SSL listener: stop it first (nest-streams-kafka stop).`,
    );
  }
  if (running) return running;

  const jvm = kafkaJvm(log);
  const { kafkaVersion } = jvm;

  mkdirSync(LOGS_DIR, { recursive: true });
  const previous = options.reuseData ? reusableBrokerLayout(KAFKA_HOME) : undefined;
  const layout = previous ?? (await freshLayout(options.saslSsl));
  if (previous) {
    for (const port of [previous.brokerPort, previous.controllerPort]) {
      if (!(await portIsFree(port))) {
        throw new BrokerToolError(
          `Cannot restart the broker of ${KAFKA_HOME} with its data: port ${port} is in use.`,
        );
      }
    }
    log(`Restarting with the data in ${previous.logDir} on the previous ports.`);
  }
  const propertiesFile = join(KAFKA_HOME, 'server.properties');
  writeFileSync(propertiesFile, serverProperties(layout));

  const jvmArgs = kafkaJvmArgs(jvm, LOGS_DIR, { min: '256m', max: '1g' });
  if (!previous) {
    // SCRAM users go into the cluster metadata with Kafka's own tool, as on any KRaft cluster.
    const scram = layout.saslSsl ? scramFormatArgs(layout.saslSsl.listener) : [];
    formatKafkaStorage(jvm, jvmArgs, layout.clusterId, propertiesFile, scram);
    writeBrokerLayout(KAFKA_HOME, layout);
  }

  const { brokerPort } = layout;
  const secure = layout.saslSsl ? ` and SASL_SSL on 127.0.0.1:${layout.saslSsl.port}` : '';
  log(
    `Starting Apache Kafka ${kafkaVersion} (KRaft, single node) on 127.0.0.1:${brokerPort}${secure}...`,
  );
  const started = Date.now();
  const child = spawnKafka(jvm, jvmArgs, propertiesFile, CONSOLE_LOG);

  const brokers = `127.0.0.1:${brokerPort}`;
  const state: BrokerState = {
    pid: child.pid,
    brokers,
    ...(layout.saslSsl ? { saslSslBrokers: `127.0.0.1:${layout.saslSsl.port}` } : {}),
    kafkaVersion,
    startedAt: new Date().toISOString(),
  };
  writeFileSync(STATE_FILE, `${JSON.stringify(state, null, 2)}\n`);

  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  while (Date.now() < deadline) {
    const exited = child.exitCode();
    if (exited !== null) {
      rmSync(STATE_FILE, { force: true });
      throw new BrokerToolError(
        `The Kafka broker exited with code ${exited} during start-up; see ${SERVER_LOG}.`,
        kafkaLogTail(LOGS_DIR),
      );
    }
    if (await answersMetadata(brokers)) {
      log(`Broker ready in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${child.pid}).`);
      return state;
    }
    await sleep(250);
  }
  signalGroup(child.pid, 'SIGKILL');
  rmSync(STATE_FILE, { force: true });
  throw new BrokerToolError(
    `The Kafka broker did not answer a metadata request within ${(options.timeoutMs ?? 90_000) / 1000} s; see ${SERVER_LOG}.`,
    kafkaLogTail(LOGS_DIR),
  );
}

/**
 * Stops the local broker started by {@link startBroker} (SIGTERM, then SIGKILL after a grace
 * period) and removes its data (unless `keepData`). Returns false when no broker of ours was running.
 */
export async function stopBroker(options: StopOptions = {}): Promise<boolean> {
  const state = readState();
  if (!state) return false;
  if (isAlive(state.pid)) {
    signalGroup(state.pid, 'SIGTERM');
    const deadline = Date.now() + (options.graceMs ?? 20_000);
    while (isAlive(state.pid) && Date.now() < deadline) await sleep(100);
    if (isAlive(state.pid)) signalGroup(state.pid, 'SIGKILL');
    while (isAlive(state.pid)) await sleep(50);
  }
  rmSync(STATE_FILE, { force: true });
  if (!options.keepData) rmSync(DATA_DIR, { recursive: true, force: true });
  return true;
}

/** The running broker of this checkout, when its process is alive and it answers. */
export async function runningBroker(): Promise<BrokerState | undefined> {
  const state = readState();
  if (!state) return undefined;
  if (isAlive(state.pid) && (await answersMetadata(state.brokers))) return state;
  if (isAlive(state.pid)) signalGroup(state.pid, 'SIGKILL');
  rmSync(STATE_FILE, { force: true });
  return undefined;
}

function readState(): BrokerState | undefined {
  if (!existsSync(STATE_FILE)) return undefined;
  try {
    return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as BrokerState;
  } catch {
    return undefined;
  }
}

/** New ports and an empty data directory, for a start that formats the storage. */
async function freshLayout(saslSsl: SaslSslListener | undefined): Promise<SavedBrokerLayout> {
  rmSync(DATA_DIR, { recursive: true, force: true });
  mkdirSync(DATA_DIR, { recursive: true });
  const [brokerPort, controllerPort, saslSslPort] = await distinctFreePorts(saslSsl ? 3 : 2);
  return {
    brokerPort,
    controllerPort,
    logDir: join(DATA_DIR, 'logs'),
    clusterId: newClusterId(),
    ...(saslSsl ? { saslSsl: { port: saslSslPort, listener: saslSsl } } : {}),
  };
}
