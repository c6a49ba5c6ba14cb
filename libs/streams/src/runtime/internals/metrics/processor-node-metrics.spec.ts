import { ProcessorNodeMetrics } from './processor-node-metrics';

describe('ProcessorNodeMetrics', () => {
  it('has no sensors when none is asked for (the hot path then reads no clock)', () => {
    expect(ProcessorNodeMetrics.of({ process: false, endToEnd: false }, 0)).toBeUndefined();
    const e2eOnly = ProcessorNodeMetrics.of({ process: false, endToEnd: true }, 0)!;
    expect(e2eOnly.process).toBeUndefined();
    expect(e2eOnly.start()).toBe(0);
  });

  it('records end-to-end latencies at a source on entry and at a terminal node when done', () => {
    const source = ProcessorNodeMetrics.of({ process: false, endToEnd: true }, 0)!;
    source.entered(1_000, 1_250);
    source.processed(0, 1_000, 9_999); // not terminal: no end-to-end latency on exit
    expect(source.endToEnd!.read(2_000)).toMatchObject({ total: 1, min: 250, max: 250 });
    const sink = ProcessorNodeMetrics.of({ process: false, endToEnd: true, terminal: true }, 0)!;
    sink.processed(0, 1_000, 1_400);
    sink.processed(0, 1_000, 1_500);
    expect(sink.endToEnd!.read(2_000)).toMatchObject({ total: 2, min: 400, max: 500, avg: 450 });
  });

  it('times each call in ns when process metrics are on', () => {
    const node = ProcessorNodeMetrics.of({ process: true, endToEnd: false }, 0)!;
    const started = node.start() - 2; // a call that took 2 ms (and a little more)
    node.processed(started, 0, 0);
    const figures = node.process!.read(1);
    expect(figures.total).toBe(1);
    expect(figures.max).toBeGreaterThanOrEqual(2e6);
    expect(figures.max).toBeLessThan(1e9);
    expect(node.endToEnd).toBeUndefined();
  });
});
