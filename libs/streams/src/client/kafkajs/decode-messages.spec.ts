import { decodeMessagesModule } from './decode-messages';
import { locateKafkajs } from './kafkajs-internals';
import { kafkajsKeyedBatch } from '../../../test-support/kafkajs-record-batches';

const kafkajs = locateKafkajs();
type Decoder = Parameters<ReturnType<typeof decodeMessagesModule>>[0];
const DecoderClass = kafkajs.load<new (buffer: Buffer) => Decoder>('./src/protocol/decoder');
// Under Jest, kafkajs' own modules are its originals (the fixes pre-seed Node's cache only).
const original = kafkajs.load<(decoder: Decoder) => Promise<{ offset: string }[]>>(
  './src/protocol/requests/fetch/v4/decodeMessages',
);
const Batch = kafkajs.load<
  new (
    topic: string,
    fetchedOffset: string,
    data: object,
  ) => {
    messages: unknown[];
    lastOffset(): string;
  }
>('./src/consumer/batch');
const decodeMessages = decodeMessagesModule(kafkajs.load);

const batch = (firstOffset: number, lastOffsetDelta: number, keys: string[]) =>
  kafkajsKeyedBatch(firstOffset, lastOffsetDelta, keys, 1_700_000_000_005);

/** The records field of a fetched partition: its size, then the batches. */
function recordsField(...batches: Buffer[]): () => Decoder {
  const bytes = Buffer.concat(batches);
  const field = Buffer.alloc(4 + bytes.length);
  field.writeInt32BE(bytes.length, 0);
  bytes.copy(field, 4);
  return () => new DecoderClass(field);
}

describe('decodeMessages (kafkajs replacement)', () => {
  it('returns the records kafkajs returns, and leaves out a partial batch at the end', async () => {
    const first = (await batch(10, 1, ['a', 'b'])).buffer;
    const second = (await batch(12, 2, ['c', 'd', 'e'])).buffer;
    const field = recordsField(first, second, second.subarray(0, 30));
    expect(await decodeMessages(field())).toEqual(await original(field()));
    expect((await decodeMessages(field())).map((m) => (m as { offset: string }).offset)).toEqual([
      '10',
      '11',
      '12',
      '13',
      '14',
    ]);
  });

  it('moves a consumer past a batch compaction emptied, where kafkajs stayed at it', async () => {
    const emptied = (await batch(12, 4, [])).buffer; // offsets 12-16, every record compacted away
    const field = recordsField(emptied);

    const ours = await decodeMessages(field());
    expect(ours).toEqual([
      expect.objectContaining({ offset: '16', key: null, value: null, isControlRecord: true }),
    ]);
    const consumed = new Batch('t', '12', { partition: 0, highWatermark: '30', messages: ours });
    expect(consumed.messages).toEqual([]); // nothing reaches the application
    expect(consumed.lastOffset()).toBe('16'); // and the consumer resumes at 17

    expect(await original(field())).toEqual([]); // kafkajs: nothing, so it fetched 12 again
  });
});
