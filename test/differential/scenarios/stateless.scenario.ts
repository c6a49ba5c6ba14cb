import { Branched, Consumed, Named, Produced } from '@nest-streams/streams';
import type { DifferentialScenario } from '../harness/scenario';
import { num, str } from './serdes';

/** The stateless operators, chained: null keys and values go through them as in Java. */
export const statelessScenario: DifferentialScenario = {
  name: 'stateless',
  operators: 'filter, filterNot, mapValues, map, flatMap, flatMapValues, selectKey, merge, split',
  input: {
    topics: [
      { topic: 'events', keys: 6, values: 'number', tombstones: 0.05, nullKeys: 0.05 },
      { topic: 'more-events', keys: 6, values: 'word', tombstones: 0.05, nullKeys: 0.05 },
    ],
  },
  outputs: [
    { topic: 'out-long', key: 'string', value: 'string' },
    { topic: 'out-short', key: 'string', value: 'string' },
    { topic: 'out-swapped', key: 'string', value: 'string' },
  ],
  stores: [],
  caching: 'on',
  build(builder) {
    const events = builder.stream('events', Consumed.with(str, str));
    const doubled = events
      .filter((_k, v) => v !== null && num(v) % 3 !== 0)
      .mapValues((v) => String(num(v) * 2));
    events
      .filterNot((_k, v) => v === null)
      .map((k, v) => ({ key: v, value: k }))
      .flatMap((k, v) =>
        Array.from({ length: num(k) % 3 }, (_, i) => ({ key: `${k}-${i}`, value: v })),
      )
      .to('out-swapped', Produced.with(str, str));
    const words = builder
      .stream('more-events', Consumed.with(str, str))
      .selectKey((k, v) => `${k}/${v}`)
      .flatMapValues((v) => (v === null ? [] : [v, `${v}!`]));
    const branches = doubled
      .merge(words)
      .split(Named.as('br-'))
      .branch((_k, v) => v.length > 2, Branched.as('long'))
      .defaultBranch(Branched.as('short'));
    branches.get('br-long')?.to('out-long', Produced.with(str, str));
    branches.get('br-short')?.to('out-short', Produced.with(str, str));
  },
};
