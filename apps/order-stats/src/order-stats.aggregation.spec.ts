import { OrderStatsAggregation } from './order-stats.aggregation';

describe('OrderStatsAggregation', () => {
  const aggregation = new OrderStatsAggregation();

  it('counts and sums in cents, exactly', () => {
    let stats = { count: 0, sum: 0 };
    for (const amount of [0.1, 0.2, 19.99]) {
      stats = aggregation.addOrder('user-1', { userId: 'user-1', amount }, stats);
    }
    expect(stats).toEqual({ count: 3, sum: 20.29 });
  });

  it('refuses an amount whose sum a double cannot hold exactly in cents', () => {
    expect(() =>
      aggregation.addOrder('user-7', { userId: 'user-7', amount: 1e300 }, { count: 1, sum: 2 }),
    ).toThrow(new RangeError('amount 1e+300 of user-7 cannot be summed exactly in cents'));
    // The largest sum still exact in cents is accepted.
    const largest = (Number.MAX_SAFE_INTEGER - 1) / 100;
    expect(
      aggregation.addOrder('user-7', { userId: 'user-7', amount: largest }, { count: 0, sum: 0 }),
    ).toEqual({ count: 1, sum: Math.round(largest * 100) / 100 });
  });
});
