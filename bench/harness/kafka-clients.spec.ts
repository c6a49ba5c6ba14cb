import type { KafkaClientName } from '@nest-streams/streams';
import { clientArgs, engineOn, OUR_ENGINES, selectedEngines, variantLabel } from './kafka-clients';
import { ratioToJava, shareOfConsumeCeiling } from './ratios';
import type { SystemRole, SystemRow } from './system-row';
import { formatTable } from './table';

const row = (
  system: string,
  role: SystemRole,
  compareKey: string,
  eventsPerSec: number,
  client?: KafkaClientName,
): SystemRow => ({
  system,
  role,
  compareKey,
  ...(client !== undefined && { client }),
  result: { system, eventsPerSec },
});

describe('our engine on each Kafka client', () => {
  it('labels each row with its client, the default first', () => {
    expect(OUR_ENGINES.map((e) => [e.system, e.client, e.label])).toEqual([
      ['ours', '@platformatic/kafka', 'nest-streams (@platformatic/kafka)'],
      ['ours-kafkajs', 'kafkajs', 'nest-streams (kafkajs)'],
    ]);
    expect(variantLabel('nest-streams', 'exactly_once_v2', '@platformatic/kafka')).toBe(
      'nest-streams exactly_once_v2 (@platformatic/kafka)',
    );
    expect(variantLabel('kafka-streams-java', 'at_least_once')).toBe(
      'kafka-streams-java at_least_once',
    );
  });

  it('selects the engines --systems names, in run order', () => {
    expect(selectedEngines(['java', 'ours-kafkajs', 'ours']).map((e) => e.tag)).toEqual([
      'ours',
      'ours-kafkajs',
    ]);
    expect(selectedEngines(['java', 'platformatic'])).toEqual([]);
    expect(engineOn('@platformatic/kafka').system).toBe('ours');
    expect(engineOn('kafkajs').system).toBe('ours-kafkajs');
  });

  it('passes --kafka-client to the worker only for the non-default client', () => {
    // A --baseline checkout older than the option still runs its kafkajs rows.
    expect(clientArgs(undefined)).toEqual([]);
    expect(clientArgs('kafkajs')).toEqual([]);
    expect(clientArgs('@platformatic/kafka')).toEqual(['--kafka-client', '@platformatic/kafka']);
  });
});

describe('ratios of the two engine rows', () => {
  const rows: SystemRow[] = [
    row('kafkajs consume only (ceiling)', 'consume-ceiling', 'ceiling', 200_000, 'kafkajs'),
    row(
      '@platformatic/kafka consume only (ceiling)',
      'consume-ceiling',
      'ceiling',
      400_000,
      '@platformatic/kafka',
    ),
    row('nest-streams at_least_once (kafkajs)', 'ours', 'at_least_once', 50_000, 'kafkajs'),
    row(
      'nest-streams at_least_once (@platformatic/kafka)',
      'ours',
      'at_least_once',
      100_000,
      '@platformatic/kafka',
    ),
    row('kafka-streams-java at_least_once', 'java', 'at_least_once', 80_000),
  ];

  it('compares each engine row with Java of the same guarantee', () => {
    expect(ratioToJava(rows[2], rows)).toBeCloseTo(0.625);
    expect(ratioToJava(rows[3], rows)).toBeCloseTo(1.25);
  });

  it("shares each row against its own client's consume-only ceiling", () => {
    expect(shareOfConsumeCeiling(rows[2], rows)).toBeCloseTo(0.25);
    expect(shareOfConsumeCeiling(rows[3], rows)).toBeCloseTo(0.25);
    // Rows without a Node client keep the kafkajs ceiling, as before.
    expect(shareOfConsumeCeiling(rows[4], rows)).toBeCloseTo(0.4);
    expect(shareOfConsumeCeiling(rows[1], rows)).toBe(undefined);
  });

  it('has no share when the row client ceiling was not measured', () => {
    expect(shareOfConsumeCeiling(rows[3], [rows[0], rows[3]])).toBe(undefined);
  });

  it('prints both rows with their ratios side by side', () => {
    const lines = formatTable(rows).split('\n');
    expect(lines[0]).toMatch(/\| vs Java \| % of ceiling \|/);
    const cells = (label: string) =>
      lines
        .find((l) => l.startsWith(`| ${label} `))!
        .split('|')
        .map((c) => c.trim());
    expect(cells('nest-streams at_least_once (kafkajs)').slice(5, 7)).toEqual(['0.63x', '25%']);
    expect(cells('nest-streams at_least_once (@platformatic/kafka)').slice(5, 7)).toEqual([
      '1.25x',
      '25%',
    ]);
  });
});
