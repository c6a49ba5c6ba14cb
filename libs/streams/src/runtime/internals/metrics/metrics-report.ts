import type { MetricsRecordingLevel } from '../../streams-config';
import { isRecordedAt, type StreamsMetric, type StreamsMetricGroup } from '../../streams-metric';
import type { SampledFigures } from './sampled-stat';
import type { WindowRates } from './window-rates';

/** Tags of one series: `task-id`, `processor-node-id`... */
export type MetricTags = Readonly<Record<string, string>>;

/**
 * One reading of a client's metrics, as `KafkaStreams.allMetrics()` returns it: what each part
 * of the runtime adds, at the client's recording level (a metric of a higher level is left
 * out), with rates of totals from the client's {@link WindowRates}, read at `now`.
 */
export class MetricsReport {
  readonly metrics: StreamsMetric[] = [];

  constructor(
    readonly level: MetricsRecordingLevel,
    readonly now: number,
    private readonly rates: WindowRates,
  ) {
    rates.beginRead();
  }

  /** Whether metrics of `level` are recorded (and reported). */
  records(level: MetricsRecordingLevel): boolean {
    return isRecordedAt(level, this.level);
  }

  /** One value. */
  add(
    group: StreamsMetricGroup,
    name: string,
    tags: MetricTags,
    value: number,
    level: MetricsRecordingLevel = 'INFO',
  ): void {
    if (this.records(level)) this.metrics.push({ group, name, tags, value });
  }

  /** `<name>-total` and `<name>-rate` of a total that only grows. */
  total(
    group: StreamsMetricGroup,
    name: string,
    tags: MetricTags,
    total: number,
    level: MetricsRecordingLevel = 'INFO',
  ): void {
    if (!this.records(level)) return;
    this.add(group, `${name}-total`, tags, total, level);
    this.add(group, `${name}-rate`, tags, this.rateOf(group, name, tags, total), level);
  }

  /** Per second, how much `total` grew over the last 30 to 60 s. */
  rateOf(group: StreamsMetricGroup, name: string, tags: MetricTags, total: number): number {
    return this.rates.rate(seriesKey(group, name, tags), total, this.now);
  }

  /** How much `total` grew over the last 30 to 60 s (for ratios). */
  growthOf(group: StreamsMetricGroup, name: string, tags: MetricTags, total: number): number {
    return this.rates.growth(seriesKey(group, name, tags), total, this.now).growth;
  }

  /**
   * `<name>-<stat>` of a sampled stat's figures for each of `stats` (`rate` and `total` are
   * the count's), values multiplied by `scale` (a unit change).
   */
  sampled(
    group: StreamsMetricGroup,
    name: string,
    tags: MetricTags,
    figures: SampledFigures,
    stats: readonly ('avg' | 'min' | 'max' | 'rate' | 'total')[],
    level: MetricsRecordingLevel,
    scale = 1,
  ): void {
    for (const stat of stats) {
      const value = stat === 'rate' || stat === 'total' ? figures[stat] : figures[stat] * scale;
      this.add(group, `${name}-${stat}`, tags, value, level);
    }
  }
}

function seriesKey(group: string, name: string, tags: MetricTags): string {
  let key = `${group}\u0000${name}`;
  for (const tag of Object.keys(tags).sort()) key += `\u0000${tag}=${tags[tag]}`;
  return key;
}
