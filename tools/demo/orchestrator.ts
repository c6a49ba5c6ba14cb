/**
 * The demo, phase by phase: broker, build, topic, two instances, events with live queries
 * through both, one instance stopped and the rebalance shown as callers see it, then every
 * user's final answer checked against the generator's truth. Everything it starts it stops.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { allUserIds, type TruthReport } from '../../apps/event-generator/src/main';
import { AppInstance, type AppCommand, type ClusterSettings } from './app-instance';
import type { DemoOptions } from './demo-options';
import {
  acquireBroker,
  choosePorts,
  cleanupKafka,
  ensureAppBuilt,
  killLocalBrokerNow,
  prepareInputTopic,
  releaseBroker,
  type BrokerHandle,
  type InputTopic,
} from './environment';
import { StoppedError } from './http-probe';
import { ProcessSupervisor } from './processes';
import { formatSeconds, LiveScreen, Palette, type ScreenOutput } from './render';
import type { TruthComparison } from './truth-check';
import { runScenario } from './demo-scenario';

/**
 * What the demo owns at any moment, for a forced exit: its child processes, and the local
 * broker from the moment it decides to start it until it has stopped it.
 */
export class DemoRuntime {
  readonly supervisor = new ProcessSupervisor();
  brokerOwned = false;

  /** SIGKILL to everything the demo owns, synchronously. */
  killEverythingNow(): void {
    this.supervisor.killAllNow();
    if (this.brokerOwned) killLocalBrokerNow();
  }
}

/** Everything a run needs. */
export interface DemoConfig {
  readonly options: DemoOptions;
  readonly repoRoot: string;
  /** The application to run. */
  readonly app: AppCommand;
  /** A file `npm run build` produces; built when missing. Undefined: no build step. */
  readonly buildOutput?: string;
  readonly out: ScreenOutput;
  readonly color: boolean;
  readonly runtime: DemoRuntime;
  /** Environment (KAFKA_BROKERS); default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** HTTP ports wanted for A and B when free; default 8080 and 8081. */
  readonly preferredPorts?: readonly number[];
}

/** How a run ended. */
export interface DemoOutcome {
  /** 0: every final answer matched the truth; 1: not, or a failure; 130: stopped by a signal. */
  readonly code: number;
  readonly comparison?: TruthComparison;
  readonly truth?: TruthReport;
}

/** A sortable, topic-safe timestamp: `20261130-104233`. */
export function runStamp(date = new Date()): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
}

/** Runs the demo until it is done (or `signal` stops it) and everything it started is stopped. */
export async function runDemo(config: DemoConfig, signal: AbortSignal): Promise<DemoOutcome> {
  const { options: o, runtime } = config;
  const p = new Palette(config.color);
  const screen = new LiveScreen(config.out, {
    live: config.out.isTTY === true,
    plainEveryMs: 5000,
  });
  const started = Date.now();
  const log = (line: string): void =>
    screen.log(`${p.dim(`[demo ${formatSeconds(Date.now() - started).padStart(7)}]`)} ${line}`);
  const stamp = runStamp();
  const applicationId = `labs-streams-demo-${stamp}`;
  const runDir = join(config.repoRoot, '.state', 'demo', applicationId);

  let broker: BrokerHandle | undefined;
  let admin: Admin | undefined;
  let input: InputTopic | undefined;
  let outcome: DemoOutcome = { code: 1 };
  const instances: AppInstance[] = [];
  try {
    broker = await acquireBroker(log, () => (runtime.brokerOwned = true), config.env);
    runtime.brokerOwned = broker.source === 'started';
    if (signal.aborted) throw new StoppedError();
    if (config.buildOutput) {
      await ensureAppBuilt(config.buildOutput, config.repoRoot, log, signal);
    }

    const kafka = new Kafka({
      clientId: `${applicationId}-admin`,
      brokers: broker.brokers.split(','),
      logLevel: logLevel.NOTHING,
    });
    admin = kafka.admin();
    await admin.connect();
    input = await prepareInputTopic(admin, o.topic, o.partitions, stamp, log);
    if (signal.aborted) throw new StoppedError();

    const httpPorts = await choosePorts(2, config.preferredPorts ?? [8080, 8081]);
    const queryPorts = await choosePorts(2, [], httpPorts);
    const cluster: ClusterSettings = {
      brokers: broker.brokers,
      applicationId,
      inputTopic: input.topic,
      standbyReplicas: 1,
      // One secret per run, shared by its instances: they answer only each other's queries.
      clusterSecret: randomBytes(32).toString('base64'),
    };
    for (const [i, label] of ['A', 'B'].entries()) {
      instances.push(
        AppInstance.start(
          runtime.supervisor,
          config.app,
          cluster,
          {
            label,
            port: httpPorts[i],
            queryPort: queryPorts[i],
            stateDir: join(runDir, label.toLowerCase()),
            logFile: join(runDir, `${label.toLowerCase()}.log`),
          },
          config.repoRoot,
        ),
      );
    }
    const [a, b] = instances;
    log(
      `starting two instances of order-stats: ${a.label} on ${a.endpoint}, ${b.label} on ${b.endpoint}` +
        ` (APPLICATION_ID=${applicationId}, NUM_STANDBY_REPLICAS=1, INPUT_TOPIC=${input.topic})`,
    );
    log(`their state and logs: ${runDir}`);
    const readyStop = new AbortController();
    const readySignal = AbortSignal.any([signal, readyStop.signal]);
    try {
      await Promise.all(instances.map((i) => i.waitReady(o.readyTimeoutS * 1000, readySignal)));
    } finally {
      readyStop.abort();
    }
    log(
      `both instances ready (GET /health/ready: 200) after ${formatSeconds(Date.now() - started)}`,
    );

    const { comparison, truth } = await runScenario({
      options: o,
      a,
      b,
      brokers: broker.brokers,
      input,
      applicationId,
      palette: p,
      screen,
      log,
      clock: () => Date.now() - started,
      signal,
    });
    outcome = { code: comparison.ok ? 0 : 1, comparison, truth };

    if (!o.unattended && !signal.aborted) {
      const base = `http://${a.endpoint}`;
      const last = allUserIds(Math.min(o.users, 5)).at(-1)!;
      for (const line of [
        `${a.label} keeps serving. Try, in another terminal:`,
        `  curl -i ${base}/stats/user-001`,
        `  curl -s '${base}/stats/range?from=user-001&to=${last}'`,
        `  curl -s ${base}/streams/metadata`,
        `Ctrl-C stops ${a.label}${broker.source === 'started' ? ' and the broker' : ''} and cleans up.`,
      ]) {
        log(line);
      }
      await new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  } catch (error) {
    screen.finish();
    if (signal.aborted || error instanceof StoppedError) {
      log('stopped.');
      outcome = { ...outcome, code: outcome.comparison ? outcome.code : 130 };
    } else {
      log(p.red(`demo failed: ${error instanceof Error ? error.message : String(error)}`));
      for (const instance of instances) {
        const tail = instance.process.tail(15);
        if (tail) log(`last lines of ${instance.label} (${instance.settings.logFile}):\n${tail}`);
      }
      outcome = { ...outcome, code: 1 };
    }
  } finally {
    screen.finish();
    const running = runtime.supervisor.running;
    if (running.length > 0) {
      log(`stopping instance(s) ${running.map((r) => r.name).join(', ')} (SIGTERM)...`);
      await runtime.supervisor.stopAll(15_000);
    }
    if (admin) {
      if (broker && broker.source !== 'started' && !o.keep) {
        await cleanupKafka(
          admin,
          { applicationId, createdTopic: input?.created ? input.topic : undefined },
          log,
        );
      }
      await admin.disconnect().catch(() => undefined);
    }
    if (broker) {
      await releaseBroker(broker, log).catch((error: unknown) =>
        log(p.red(`could not stop the broker: ${String(error)}`)),
      );
      runtime.brokerOwned = false;
    }
    if (!o.keep) {
      for (const instance of instances) {
        rmSync(instance.settings.stateDir, { recursive: true, force: true });
      }
      if (outcome.code === 0 || instances.length === 0)
        rmSync(runDir, { recursive: true, force: true });
      else log(`instance logs kept in ${runDir}`);
    }
  }
  return outcome;
}
