import { windowedTruth } from '../harness/truth';
import { WINDOW_RETENTION_MS, WINDOW_SIZE_MS } from '../topologies/bench-types';
import type { Scenario } from './scenario';
import { prepareInput } from './scenario-input';
import { runStreamComparison } from './stream-comparison';

/**
 * `windowed`: count per user in 5-minute tumbling windows without grace (retention 1 hour)
 * into a persistent, cached, logged window store, on the same kind of data as `aggregate`
 * (event times spread over 50 minutes: 10 or 11 windows per user).
 */
export const windowedScenario: Scenario = {
  name: 'windowed',
  description: 'groupByKey().windowedBy(5 min tumbling, no grace).count() into a window store',
  defaults: { events: 1_000_000, keys: 100_000, partitions: 6 },
  async run(ctx) {
    const input = await prepareInput(ctx, this.defaults);
    const truth = windowedTruth(input.data, WINDOW_SIZE_MS);
    const { rows, changelogRecords } = await runStreamComparison(ctx, input, {
      mode: 'windowed',
      truth,
      keyColumns: 2,
    });
    return {
      rows,
      params: {
        ...input.params,
        windowSizeMs: WINDOW_SIZE_MS,
        retentionMs: WINDOW_RETENTION_MS,
        userWindows: truth.size,
        changelogRecords,
      },
    };
  },
};
