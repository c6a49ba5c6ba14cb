import { mergeOverlay, WriteBehindBuffer } from './write-behind-buffer';

const k = (text: string): Buffer => Buffer.from(text);

describe('WriteBehindBuffer', () => {
  it('answers lookups newest first across pending and in-flight batches', () => {
    const buffer = new WriteBehindBuffer();
    buffer.set(k('a'), k('1'));
    const first = buffer.take();
    buffer.set(k('a'), null);
    buffer.set(k('b'), k('2'));
    expect(buffer.lookup(k('a'))?.value).toBeNull();
    expect(buffer.take()).toBeDefined();
    buffer.set(k('a'), k('3'));
    expect(buffer.lookup(k('a'))?.value?.toString()).toBe('3');
    expect(buffer.lookup(k('c'))).toBeUndefined();
    buffer.settle(first as NonNullable<typeof first>);
    expect(buffer.take()?.size).toBe(1);
    expect(buffer.take()).toBeUndefined();
  });

  it('overlays writes on engine entries in key order', () => {
    const buffer = new WriteBehindBuffer();
    buffer.set(k('b'), null);
    buffer.set(k('d'), k('D2'));
    buffer.set(k('e'), k('E'));
    buffer.set(k('z'), k('Z'));
    const entries = ['a', 'b', 'c', 'd'].map((key) => ({
      key: k(key),
      value: k(key.toUpperCase()),
    }));
    const merged = mergeOverlay(
      entries,
      buffer.overlay((key) => key.toString() <= 'e'),
    );
    expect(merged.map((entry) => `${entry.key}=${entry.value}`)).toEqual([
      'a=A',
      'c=C',
      'd=D2',
      'e=E',
    ]);
  });
});
