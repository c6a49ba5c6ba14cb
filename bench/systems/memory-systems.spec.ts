import { memoryRowTimeoutMs } from './memory-systems';

describe('memoryRowTimeoutMs', () => {
  it('keeps --timeout-ms for few stores and grows with many', () => {
    expect(memoryRowTimeoutMs(300_000, 1)).toBe(300_000);
    expect(memoryRowTimeoutMs(300_000, 10)).toBe(300_000);
    expect(memoryRowTimeoutMs(300_000, 50)).toBe(1_250_000);
    expect(memoryRowTimeoutMs(2_000_000, 50)).toBe(2_000_000);
  });
});
