import { BrokerToolError } from './broker-error';
import { recordOfLine } from './console-producer';

describe('recordOfLine', () => {
  it('splits at the first separator: the key before it, the value after', () => {
    expect(recordOfLine('alice:{"userId":"alice","amount":12.5}', ':', 1)).toEqual({
      key: 'alice',
      value: '{"userId":"alice","amount":12.5}',
    });
    expect(recordOfLine('a\tb\tc', '\t', 1)).toEqual({ key: 'a', value: 'b\tc' });
    expect(recordOfLine('k:', ':', 1)).toEqual({ key: 'k', value: '' });
  });

  it('skips empty lines', () => {
    expect(recordOfLine('', ':', 3)).toBeNull();
    expect(recordOfLine('   ', ':', 3)).toBeNull();
  });

  it('refuses a line without a key, naming it', () => {
    expect(() => recordOfLine('no key here', ':', 7)).toThrow(
      new BrokerToolError('Line 7 has no key: write <key>:<value> (or set --key-separator).'),
    );
  });
});
