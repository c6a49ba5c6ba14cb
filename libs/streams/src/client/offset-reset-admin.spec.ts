import { offsetsByTopic } from './offset-reset-admin';

describe('offsetsByTopic', () => {
  it('groups offsets by topic in the order given, converting each offset', () => {
    const grouped = offsetsByTopic(
      [
        { topic: 'a', partition: 1, offset: 7 },
        { topic: 'b', partition: 0, offset: 0 },
        { topic: 'a', partition: 0, offset: 3 },
      ],
      BigInt,
    );
    expect([...grouped]).toEqual([
      [
        'a',
        [
          { partition: 1, offset: 7n },
          { partition: 0, offset: 3n },
        ],
      ],
      ['b', [{ partition: 0, offset: 0n }]],
    ]);
  });
});
