import { ThreadMetrics } from './thread-metrics';

describe('ThreadMetrics', () => {
  it('counts processed records and records the time per record of each slice', () => {
    const thread = new ThreadMetrics('app-StreamThread-1', 5_000);
    thread.recordProcessing(1_000, 50);
    thread.recordProcessing(0, 3); // an empty slice records nothing
    thread.recordProcessing(10, 2);
    expect(thread.processed).toBe(1_010);
    expect(thread.processLatency.read(6_000)).toMatchObject({ total: 2, min: 0.05, max: 0.2 });
    expect(thread.startTime).toBe(5_000);
  });
});
