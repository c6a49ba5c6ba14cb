import { Injectable, Logger, type LoggerService } from '@nestjs/common';

/** How terminus begins the line of a failed check (its JSON error style, the default). */
const FAILED_CHECK = 'Health Check has failed! ';

/**
 * The logger to give terminus, `TerminusModule.forRoot({ logger: StreamsTerminusLogger })`:
 * terminus logs an error for every probe answered down, and a starting client answers down at
 * every probe until its stores are restored. `StreamsHealthIndicator` logs each probe's answer
 * when it changes instead, so a failed check in which only its results are down is not logged
 * here; any other failed check (your own indicators) is logged as terminus would, at error.
 * Everything else terminus logs passes through, under the context `HealthCheckService`.
 *
 * With `errorLogStyle: 'pretty'` the checks cannot be read back: every failed check is logged.
 */
@Injectable()
export class StreamsTerminusLogger implements LoggerService {
  private readonly logger = new Logger('HealthCheckService');

  log(message: unknown, ...params: unknown[]): void {
    this.logger.log(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.logger.warn(message, ...params);
  }

  error(message: unknown, ...params: unknown[]): void {
    if (typeof message === 'string' && onlyStreamsDown(message)) return;
    this.logger.error(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.logger.debug(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.logger.verbose(message, ...params);
  }
}

/**
 * Whether a terminus failed-check line reports only `StreamsHealthIndicator` results down (the
 * details of every down indicator carry the streams details: `state`, `reason`, `code`,
 * `rebalancing`).
 */
function onlyStreamsDown(message: string): boolean {
  if (!message.startsWith(FAILED_CHECK)) return false;
  let details: unknown;
  try {
    details = JSON.parse(message.slice(FAILED_CHECK.length));
  } catch {
    return false;
  }
  if (typeof details !== 'object' || details === null) return false;
  const down = Object.values(details).filter(
    (result) => (result as { status?: unknown } | null)?.status !== 'up',
  );
  return down.length > 0 && down.every(isStreamsResult);
}

function isStreamsResult(result: unknown): boolean {
  if (typeof result !== 'object' || result === null) return false;
  const r = result as Record<string, unknown>;
  return (
    typeof r.state === 'string' &&
    typeof r.reason === 'string' &&
    typeof r.code === 'string' &&
    typeof r.rebalancing === 'boolean'
  );
}
