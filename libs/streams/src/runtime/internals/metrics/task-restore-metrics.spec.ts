import { TaskRestoreMetrics } from './task-restore-metrics';

describe('TaskRestoreMetrics', () => {
  it('counts restored records and the offsets left, and passes every call on', () => {
    const metrics = new TaskRestoreMetrics();
    const heard: string[] = [];
    const listener = metrics.listener({
      onRestoreStart: (_tp, store, start, end) => heard.push(`start ${store} ${start}-${end}`),
      onBatchRestored: (_tp, store, last, n) => heard.push(`batch ${store} ${last} ${n}`),
      onRestoreEnd: (_tp, store, total) => heard.push(`end ${store} ${total}`),
    });
    const p0 = { topic: 'app-s-changelog', partition: 0 };
    const p1 = { topic: 'app-s-changelog', partition: 1 };
    listener.onRestoreStart!(p0, 's', 100, 1_100);
    listener.onRestoreStart!(p1, 's', 0, 50);
    expect(metrics.remaining).toBe(1_050);
    listener.onBatchRestored!(p0, 's', 599, 480); // compacted: fewer records than offsets
    expect(metrics.remaining).toBe(550);
    expect(metrics.restored).toBe(480);
    listener.onRestoreEnd!(p1, 's', 0);
    expect(metrics.remaining).toBe(500);
    listener.onBatchRestored!(p0, 's', 1_099, 500);
    listener.onRestoreEnd!(p0, 's', 980);
    expect(metrics.remaining).toBe(0);
    expect(metrics.restored).toBe(980);
    expect(heard).toEqual([
      'start s 100-1100',
      'start s 0-50',
      'batch s 599 480',
      'end s 0',
      'batch s 1099 500',
      'end s 980',
    ]);
  });

  it('listens alone when the application has no listener', () => {
    const metrics = new TaskRestoreMetrics();
    const listener = metrics.listener(undefined);
    listener.onRestoreStart!({ topic: 't', partition: 0 }, 's', 0, 10);
    listener.onBatchRestored!({ topic: 't', partition: 0 }, 's', 9, 10);
    expect(metrics).toMatchObject({ restored: 10, remaining: 0 });
  });
});
