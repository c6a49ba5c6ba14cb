import { incrementSequence, ProducerSequences } from './platformatic-produce-sender';

describe('ProducerSequences', () => {
  it('gives each partition its next base sequence, counting records', () => {
    const sequences = new ProducerSequences();
    sequences.use(7n, 0);
    expect(sequences.take('t', 0, 3)).toBe(0);
    expect(sequences.take('t', 0, 2)).toBe(3);
    expect(sequences.take('t', 1, 1)).toBe(0);
    expect(sequences.take('u', 0, 1)).toBe(0);
    expect(sequences.take('t', 0, 1)).toBe(5);
  });

  it('keeps counting for the same producer id and epoch, and starts over for new ones', () => {
    const sequences = new ProducerSequences();
    sequences.use(7n, 0);
    sequences.take('t', 0, 3);
    sequences.use(7n, 0);
    expect(sequences.take('t', 0, 1)).toBe(3);
    sequences.use(7n, 1);
    expect(sequences.take('t', 0, 1)).toBe(0);
    sequences.use(8n, 1);
    expect(sequences.take('t', 0, 1)).toBe(0);
    sequences.clear();
    sequences.use(8n, 1);
    expect(sequences.take('t', 0, 1)).toBe(0);
  });
});

describe('incrementSequence', () => {
  it('adds, and wraps past 2^31 - 1 to 0 as the broker counts', () => {
    expect(incrementSequence(0, 5)).toBe(5);
    expect(incrementSequence(0x7fffffff - 5, 5)).toBe(0x7fffffff);
    expect(incrementSequence(0x7fffffff, 1)).toBe(0);
    expect(incrementSequence(0x7fffffff - 1, 3)).toBe(1);
  });
});
