import type { StateLogger } from '../src/logging/logger';

/** A logger that keeps the warnings it is given and drops the rest. */
export class RecordingLogger implements StateLogger {
  readonly warnings: string[] = [];
  error(): void {}
  info(): void {}
  debug(): void {}
  warn(message: string): void {
    this.warnings.push(message);
  }
}
