import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { buildMavenProject } from '../../../tools/java/maven-project';
import type { CaseResult, DifferentialCase } from './differential-case';
import { scratchDir } from './scratch-dir';

/** The Maven project of the Java side. */
export const JAVA_DIFFERENTIAL_DIR = resolve(__dirname, '..', 'java');
const MAIN_CLASS = 'dev.neststreams.differential.DifferentialMain';
const STDERR_LINES_KEPT = 40;

/**
 * The Java side as one long-lived JVM (a JVM's start and warm-up cost more than hundreds of
 * cases): cases go to its stdin as JSON lines, results come back on its stdout in the same
 * order. Built with Maven first when its sources changed.
 */
export class JavaDriverProcess {
  private readonly pending: {
    resolve: (result: CaseResult) => void;
    reject: (error: Error) => void;
  }[] = [];
  private readonly stderr: string[] = [];
  private exited: Error | undefined;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (line) => this.onResult(line));
    createInterface({ input: child.stderr }).on('line', (line) => {
      this.stderr.push(line);
      if (this.stderr.length > STDERR_LINES_KEPT) this.stderr.shift();
    });
    child.on('exit', (code, signal) => {
      this.exited = new Error(
        `the Java side exited (${signal ?? `code ${code}`}):\n${this.stderr.join('\n')}`,
      );
      for (const waiter of this.pending.splice(0)) waiter.reject(this.exited);
    });
  }

  /**
   * Builds the Java side if needed and starts its JVM.
   *
   * @throws Error when Java 17+ or Maven is missing, or the build fails (Maven's output).
   */
  static start(log: (line: string) => void): JavaDriverProcess {
    const stateDir = scratchDir();
    mkdirSync(stateDir, { recursive: true });
    const command = buildMavenProject(
      JAVA_DIFFERENTIAL_DIR,
      MAIN_CLASS,
      log,
      'the differential harness (Java side)',
      [
        '-Xmx768m',
        '-XX:+UseSerialGC',
        '-Dorg.slf4j.simpleLogger.defaultLogLevel=error',
        `-Djava.io.tmpdir=${stateDir}`,
      ],
    );
    const child = spawn(command.java, [...command.baseArgs], { stdio: ['pipe', 'pipe', 'pipe'] });
    return new JavaDriverProcess(child);
  }

  /**
   * Runs one case in Kafka Streams' TopologyTestDriver.
   *
   * @throws Error (rejects) when the JVM has exited: the message carries its last stderr lines.
   */
  run(testCase: DifferentialCase): Promise<CaseResult> {
    if (this.exited) return Promise.reject(this.exited);
    return new Promise<CaseResult>((resolve, reject) => {
      this.pending.push({ resolve, reject });
      this.child.stdin.write(`${JSON.stringify(testCase)}\n`);
    });
  }

  /** Closes the JVM's stdin (it exits after the last case) and waits for it to exit. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exit = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin.end();
    await exit;
  }

  private onResult(line: string): void {
    const waiter = this.pending.shift();
    if (!waiter) return;
    try {
      waiter.resolve(JSON.parse(line) as CaseResult);
    } catch {
      waiter.reject(new Error(`the Java side wrote a line that is not a result: ${line}`));
    }
  }
}
