/**
 * The Grafana dashboard and the Prometheus alert rules of deploy/monitoring: every metric their
 * queries name is one the example application exports on /metrics (read from a running
 * instance of it: its AppModule on StreamsTestingModule, no broker), the alerts at the default
 * recording level (INFO), the dashboard at DEBUG, whose panels that need DEBUG say so; and the
 * metrics reference (docs/metrics.md) lists exactly the metrics it exports.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { parse } from 'yaml';

const MONITORING = join(__dirname, '..', '..', 'deploy', 'monitoring');

interface Panel {
  type: string;
  title: string;
  targets?: { expr: string }[];
}
interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: { severity?: string };
  annotations?: { summary?: string; description?: string };
}

/** Metric names on the example application's /metrics at `level`, with their types. */
async function exportedMetrics(level: string): Promise<Map<string, string>> {
  process.env.KAFKA_BROKERS = '127.0.0.1:1';
  process.env.PORT = '18081';
  process.env.FORWARDING_SECRET = 'monitoring-test-cluster-secret';
  process.env.METRICS_RECORDING_LEVEL = level;
  let text = '';
  await jest.isolateModulesAsync(async () => {
    // Loaded anew (Nest with it: one copy of its classes): the module reads the environment
    // when it loads.
    const { Test } = await import('@nestjs/testing');
    const { StreamsTestingModule } = await import('@nest-streams/testing');
    const { AppModule } = await import('../../apps/order-stats/src/app.module');
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule, StreamsTestingModule.forRoot()],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    try {
      text = (await request(app.getHttpServer()).get('/metrics').expect(200)).text;
    } finally {
      await app.close();
    }
  });
  delete process.env.METRICS_RECORDING_LEVEL;
  const types = new Map<string, string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) types.set(name, type);
  return types;
}

/** The metric names a PromQL expression reads (ours all start with `kafka_streams_`). */
function metricNames(expr: string): string[] {
  const unquoted = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return [...new Set(unquoted.match(/\bkafka_streams_[a-zA-Z0-9_]+/g) ?? [])];
}

/**
 * The metrics `expr` reads (`where` names it in a failure), each of them exported in `types`;
 * at least one.
 */
function expectReadsExported(where: string, expr: string, types: Map<string, string>): string[] {
  const names = metricNames(expr);
  const missing = names.filter((name) => !exported(types, name));
  expect({ where, reads: names.length, missing }).toEqual({
    where,
    reads: names.length || 'none',
    missing: [],
  });
  return names;
}

/** Whether `name` is exported: itself, or a histogram's `_bucket`, `_sum` or `_count`. */
function exported(types: Map<string, string>, name: string): boolean {
  if (types.has(name)) return true;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return base !== name && types.get(base) === 'histogram';
}

describe('deploy/monitoring: the dashboard and the alert rules', () => {
  let info: Map<string, string>;
  let debug: Map<string, string>;
  const dashboard = JSON.parse(
    readFileSync(join(MONITORING, 'grafana-dashboard.json'), 'utf8'),
  ) as {
    uid: string;
    panels: Panel[];
  };
  const rules = (
    parse(readFileSync(join(MONITORING, 'prometheus-alerts.yaml'), 'utf8')) as {
      groups: { name: string; rules: Rule[] }[];
    }
  ).groups.flatMap((g) => g.rules);

  beforeAll(async () => {
    info = await exportedMetrics('INFO');
    debug = await exportedMetrics('DEBUG');
  });

  it('exports more at DEBUG than at INFO, and Kafka Streams names at both', () => {
    expect(info.get('kafka_streams_stream_task_dropped_records_total')).toBe('counter');
    expect(info.get('kafka_streams_stream_processor_node_record_e2e_latency_max')).toBe('gauge');
    expect(info.has('kafka_streams_stream_processor_node_process_rate')).toBe(false);
    expect(debug.get('kafka_streams_stream_processor_node_process_rate')).toBe('gauge');
    for (const name of info.keys()) expect(debug.has(name)).toBe(true);
  });

  it('alerts on lag, a stalled thread, rebalances, slow restores and dead letters, from INFO metrics', () => {
    const byName = new Map(rules.map((r) => [r.alert, r]));
    for (const alert of [
      'StreamsConsumerLagGrowing',
      'StreamsNotProcessing',
      'StreamsThreadNotPolling',
      'StreamsRepeatedRebalances',
      'StreamsRestoreSlow',
      'StreamsRestoreStalled',
      'StreamsDeadLetters',
    ]) {
      expect(byName.has(alert)).toBe(true);
    }
    for (const rule of rules) {
      expectReadsExported(rule.alert, rule.expr, info);
      expect(['info', 'warning', 'critical']).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary).toBeTruthy();
      expect(rule.annotations?.description).toBeTruthy();
    }
  });

  it('draws every panel from exported metrics, and says which need DEBUG', () => {
    const panels = dashboard.panels.filter((p) => p.type !== 'row');
    expect(panels.length).toBeGreaterThan(20);
    for (const panel of panels) {
      const exprs = (panel.targets ?? []).map((t) => t.expr).join('\n');
      const names = expectReadsExported(panel.title, exprs, debug);
      const needsDebug = names.some((name) => !exported(info, name));
      expect({ panel: panel.title, needsDebug }).toEqual({
        panel: panel.title,
        needsDebug: panel.title.includes('(DEBUG)'),
      });
    }
  });

  it('lists every exported metric in docs/metrics.md, and no other', () => {
    const reference = readFileSync(join(__dirname, '..', '..', 'docs', 'metrics.md'), 'utf8');
    const listed = new Set(
      [...reference.matchAll(/`(kafka_streams_[a-z0-9_]+)`/g)].map((m) => m[1]),
    );
    for (const name of debug.keys()) {
      expect({ name, listed: listed.has(name) }).toEqual({ name, listed: true });
    }
    for (const name of listed) {
      expect({ name, exported: exported(debug, name) }).toEqual({ name, exported: true });
    }
  });

  it('finds a misspelt metric (the check itself)', () => {
    expect(
      metricNames('rate(kafka_streams_stream_thread_proces_total{reason="kafka_streams_x"}[5m])'),
    ).toEqual(['kafka_streams_stream_thread_proces_total']);
    expect(exported(debug, 'kafka_streams_stream_thread_proces_total')).toBe(false);
    expect(exported(info, 'kafka_streams_rebalance_duration_seconds_bucket')).toBe(true);
    expect(exported(info, 'kafka_streams_active_tasks_bucket')).toBe(false);
  });
});
