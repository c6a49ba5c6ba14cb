import { aggregateTruth } from '../harness/truth';
import type { Scenario } from './scenario';
import { prepareInput } from './scenario-input';
import { runStreamComparison } from './stream-comparison';

/**
 * `aggregate`: count and sum per user into a persistent, cached, logged store, one instance,
 * events/s from start until every event is processed and committed; both guarantees.
 */
export const aggregateScenario: Scenario = {
  name: 'aggregate',
  description: 'groupByKey().aggregate(count, sum) into stats-store (RocksDB, cache, changelog)',
  defaults: { events: 1_000_000, keys: 100_000, partitions: 6 },
  async run(ctx) {
    const input = await prepareInput(ctx, this.defaults);
    const truth = aggregateTruth(input.data);
    const { rows, changelogRecords } = await runStreamComparison(ctx, input, {
      mode: 'aggregate',
      truth,
      keyColumns: 1,
    });
    return { rows, params: { ...input.params, distinctUsers: truth.size, changelogRecords } };
  },
};
