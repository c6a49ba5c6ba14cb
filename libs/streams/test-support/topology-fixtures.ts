import type { StreamsBuilder } from '../src/kstream/streams-builder';
import { Materialized } from '../src/kstream/materialized';
import { Named } from '../src/kstream/named';

/** `describe()` text from lines, so expectations read like Kafka Streams' output. */
export function topology(...lines: string[]): string {
  return `Topologies:\n${lines.join('\n')}\n`;
}

/**
 * Adds to `builder` two joins of tables `left` and `right`: a left join materialized as
 * `joined` and written to `out`, and an inner join named `inner` (the topology of the
 * `table-table-joins` Java description in test/fixtures).
 */
export function addTableTableJoins(builder: StreamsBuilder): void {
  const left = builder.table<string, string>('left');
  const right = builder.table<string, string>('right');
  left
    .leftJoin(right, (l, r) => `${l}+${r}`, undefined, Materialized.as('joined'))
    .toStream()
    .to('out');
  left.join(right, (l, r) => l + r, Named.as('inner'));
}
