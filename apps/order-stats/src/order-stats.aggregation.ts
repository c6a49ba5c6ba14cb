import { Injectable } from '@nestjs/common';
import { Aggregate, Count, StateStore } from '@nest-streams/nestjs';
import { Serdes, TimeWindows } from '@nest-streams/streams';
import { orderEventSerde, orderStatsSerde, type OrderEvent, type OrderStats } from './order-event';

/** Tumbling window size of `windowed-count-store`. */
export const WINDOW_SIZE_MS = 5 * 60_000;
/** Retention of `windowed-count-store`: one hour of windows. */
export const WINDOW_RETENTION_MS = 60 * 60_000;
const INPUT_TOPIC = process.env.INPUT_TOPIC ?? 'labs.events';

/**
 * The example's two aggregations over `labs.events`: count and sum per user into
 * `stats-store`, and a 5-minute tumbling count (no grace, 1 hour retention) into
 * `windowed-count-store`. Both persistent (RocksDB), cached, with changelogs.
 */
@StateStore('stats-store', { keySerde: Serdes.String(), valueSerde: orderStatsSerde })
@StateStore('windowed-count-store', {
  kind: 'window',
  keySerde: Serdes.String(),
  retentionMs: WINDOW_RETENTION_MS,
  windowSizeMs: WINDOW_SIZE_MS,
})
@Injectable()
export class OrderStatsAggregation {
  @Aggregate<string, OrderEvent, OrderStats>({
    source: INPUT_TOPIC,
    store: 'stats-store',
    initializer: () => ({ count: 0, sum: 0 }),
    keySerde: Serdes.String(),
    valueSerde: orderEventSerde,
  })
  addOrder(userId: string, event: OrderEvent, stats: OrderStats): OrderStats {
    // Sums in cents, so repeated additions of 2-decimal amounts stay exact. A sum a double
    // cannot hold exactly in cents (an amount like 1e300) is refused: the processing exception
    // handler skips the record (and dead-letters it with DEAD_LETTER_TOPIC).
    const cents = Math.round(stats.sum * 100 + event.amount * 100);
    if (!Number.isSafeInteger(cents)) {
      throw new RangeError(`amount ${event.amount} of ${userId} cannot be summed exactly in cents`);
    }
    return { count: stats.count + 1, sum: cents / 100 };
  }

  @Count<string, OrderEvent>({
    source: INPUT_TOPIC,
    store: 'windowed-count-store',
    windows: TimeWindows.ofSizeWithNoGrace(WINDOW_SIZE_MS),
    keySerde: Serdes.String(),
    valueSerde: orderEventSerde,
  })
  countOrder(): boolean {
    return true;
  }
}
