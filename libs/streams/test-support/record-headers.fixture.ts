// Records with headers of several shapes, as a kafkajs producer sends them, and the headers a
// reader must hand back for them: the contracts of the reader by assignment and of the group
// consumer use both. kafkajs cannot encode a header with no value (its size computation throws
// on null; jest's module registry keeps the engine's fixed encoder out of these tests): the
// decoder's unit spec covers null values.
import type { Message } from 'kafkajs';
import type { RecordHeaders } from '../src/client/wire-format/record-headers';

/** The messages to produce, in order (no key: each goes to the partition it is sent to). */
export const MESSAGES_WITH_HEADERS: Message[] = [
  { value: 'none' },
  { value: 'one', headers: { trace: 'abc' } },
  { value: 'repeated', headers: { multi: ['x', '', Buffer.from([0xff, 0x00])], single: 'ü' } },
  { value: 'empty', headers: { empty: '' } },
  { value: 'utf8', headers: { 'naïve-é 日本': 'çà', '': 'unnamed' } },
];

/** The headers of each of {@link MESSAGES_WITH_HEADERS}, exactly as read back. */
export const EXPECTED_HEADERS: RecordHeaders[] = [
  {},
  { trace: Buffer.from('abc') },
  {
    multi: [Buffer.from('x'), Buffer.alloc(0), Buffer.from([0xff, 0x00])],
    single: Buffer.from('ü'),
  },
  { empty: Buffer.alloc(0) },
  { 'naïve-é 日本': Buffer.from('çà'), '': Buffer.from('unnamed') },
];
