import type { ReadOnlyKeyValueStore } from '../../state/key-value-store';
import { CompositeReadOnlyKeyValueStore } from './composite-read-only-key-value-store';
import { unwrapKeyValueStore } from './timestamped-unwrapping';
import { queryRead } from './query-read';

/** A store whose processing read must not be used by queries. */
function store(values: Record<string, number>, withQueryGet: boolean) {
  const base = {
    name: 's',
    get: (key: string): number | undefined => {
      if (withQueryGet) throw new Error('get used by a query');
      return values[key];
    },
  };
  return (withQueryGet
    ? { ...base, queryGet: (key: string) => values[key] }
    : base) as unknown as ReadOnlyKeyValueStore<string, number>;
}

describe('queryRead', () => {
  it('uses queryGet when the store has it, else get', () => {
    expect(queryRead(store({ a: 1 }, true), 'a')).toBe(1);
    expect(queryRead(store({ a: 2 }, false), 'a')).toBe(2);
  });

  it('is what the composite store and the timestamped view read with', () => {
    const composite = new CompositeReadOnlyKeyValueStore('s', () => ({
      partitionCount: 2,
      stores: [
        { partition: 0, active: true, lag: 0, store: store({}, true) },
        { partition: 1, active: true, lag: 0, store: store({ k: 7 }, true) },
      ],
    }));
    expect(composite.get('k')).toBe(7);
    expect(composite.get('other')).toBeUndefined();
    const timestamped = {
      name: 's',
      get: () => {
        throw new Error('get used by a query');
      },
      queryGet: (key: string) => (key === 'k' ? { value: 3, timestamp: 1 } : undefined),
    } as unknown as Parameters<typeof unwrapKeyValueStore<string, number>>[0];
    expect(unwrapKeyValueStore(timestamped).get('k')).toBe(3);
  });
});
