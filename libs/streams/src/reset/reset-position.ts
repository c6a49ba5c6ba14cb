// Where an application reset puts the input topics' offsets, and how a partition's target
// offset follows from it (Kafka's `kafka-streams-application-reset` options).
import { StreamsConfigError } from '../errors/streams-config.error';

/**
 * Where {@link resetApplication} moves the application's committed input offsets:
 * `earliest` (`--to-earliest`, the default), `latest` (`--to-latest`), `datetime`
 * (`--to-datetime`: the first record at or after `timestamp`, epoch ms), `duration`
 * (`--by-duration`: the first record at or after now minus `durationMs`) or `offset`
 * (`--to-offset`: the same offset in every partition). A target outside a partition's log is
 * moved to its nearest end, as Kafka's tool does.
 */
export type ResetPosition =
  | { readonly to: 'earliest' }
  | { readonly to: 'latest' }
  | { readonly to: 'datetime'; readonly timestamp: number }
  | { readonly to: 'duration'; readonly durationMs: number }
  | { readonly to: 'offset'; readonly offset: number };

/**
 * The target offset of one partition: `byTimestamp` is the first offset at or after the
 * position's time (-1 when no record is that recent: the log end), asked only for time
 * positions. Clamped to `[low, high]`.
 */
export function targetOffset(
  position: ResetPosition,
  log: { readonly low: number; readonly high: number },
  byTimestamp?: number,
): number {
  const clamp = (offset: number) => Math.min(Math.max(offset, log.low), log.high);
  switch (position.to) {
    case 'earliest':
      return log.low;
    case 'latest':
      return log.high;
    case 'offset':
      return clamp(position.offset);
    case 'datetime':
    case 'duration':
      return byTimestamp === undefined || byTimestamp < 0 ? log.high : clamp(byTimestamp);
  }
}

/** The epoch ms a time position asks offsets for; undefined for the others. */
export function positionTimestamp(position: ResetPosition, now: number): number | undefined {
  if (position.to === 'datetime') return position.timestamp;
  if (position.to === 'duration') return now - position.durationMs;
  return undefined;
}

const DURATION = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/**
 * An ISO-8601 duration of Kafka's `--by-duration` (`PnDTnHnMn.nS`, e.g. `PT1H30M`, `P2D`) in ms.
 *
 * @throws StreamsConfigError when the text is not such a duration: fix the option.
 */
export function parseResetDuration(text: string): number {
  const match = DURATION.exec(text.trim().toUpperCase());
  if (!match || text.trim().length < 2 || /T$/.test(text.trim().toUpperCase())) {
    throw new StreamsConfigError(
      `--by-duration must be an ISO-8601 duration such as PT1H30M or P2D, got '${text}'`,
    );
  }
  const [, days, hours, minutes, seconds] = match;
  return Math.round(
    Number(days ?? 0) * 86_400_000 +
      Number(hours ?? 0) * 3_600_000 +
      Number(minutes ?? 0) * 60_000 +
      Number(seconds ?? 0) * 1_000,
  );
}

/**
 * A date-time of Kafka's `--to-datetime` (`YYYY-MM-DDTHH:mm:SS.sss`, with `Z` or `±hh:mm`; UTC
 * when the zone is left out) in epoch ms.
 *
 * @throws StreamsConfigError when the text is not such a date-time: fix the option.
 */
export function parseResetDatetime(text: string): number {
  const trimmed = text.trim();
  const withZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(trimmed) ? trimmed : `${trimmed}Z`;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(trimmed) ? Date.parse(withZone) : NaN;
  if (Number.isNaN(ms)) {
    throw new StreamsConfigError(
      `--to-datetime must be a date-time such as 2026-12-06T08:00:00.000Z, got '${text}'`,
    );
  }
  return ms;
}
