import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';
import { pinnedKafkaVersion } from '@nest-streams/testing/kafka';

/** The machine a run measured on, for the JSON and the report. */
export interface MachineInfo {
  readonly nproc: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly java: string;
  readonly kafka: string;
  /** 1-minute load average when the run started (other work on the machine skews figures). */
  readonly loadAverageAtStart: number;
}

/** Reads the machine's description (nproc, /proc/cpuinfo, versions). */
export function machineInfo(): MachineInfo {
  let cpuModel = 'unknown';
  try {
    cpuModel =
      /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ??
      cpuModel;
  } catch {
    // not Linux
  }
  const javaVersion = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const java = /version "([^"]+)"/.exec(`${javaVersion.stderr ?? ''}`)?.[1] ?? 'unknown';
  let kafka = 'unknown';
  try {
    kafka = pinnedKafkaVersion();
  } catch {
    // no pom
  }
  return {
    nproc: availableParallelism(),
    cpuModel,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    java,
    kafka,
    loadAverageAtStart: Math.round(loadavg()[0] * 100) / 100,
  };
}
