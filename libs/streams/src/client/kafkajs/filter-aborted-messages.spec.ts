import {
  filterAbortedMessages,
  installCommittedFetch,
  type FetchingBroker,
} from './filter-aborted-messages';

const COMMIT = Buffer.from([0, 0, 0, 1]);
const ABORT = Buffer.from([0, 0, 0, 0]);

function message(offset: number, producerId: string, key = Buffer.from('k'), control = false) {
  return {
    offset: String(offset),
    key,
    value: control ? null : Buffer.from(`${producerId}@${offset}`),
    isControlRecord: control,
    batchContext: { producerId, inTransaction: true },
  };
}

describe('filterAbortedMessages (kafkajs replacement)', () => {
  it('drops aborted records of every transaction begun before the fetch, and keeps the markers for kafkajs to drop', () => {
    // p1 aborted from 0, p2 aborted from 1; this fetch starts at 3 with p2's record.
    const messages = [
      message(3, 'p2'),
      message(4, 'p1'),
      message(5, 'p3', COMMIT, true),
      message(6, 'p1', ABORT, true),
      message(7, 'p2', ABORT, true),
      message(8, 'p1'),
      message(9, 'p1', COMMIT, true),
    ];
    const kept = filterAbortedMessages({
      messages,
      abortedTransactions: [
        { producerId: 'p1', firstOffset: '0' },
        { producerId: 'p2', firstOffset: '1' },
      ],
    });
    expect(kept.map((m) => m.offset)).toEqual(['5', '6', '7', '8', '9']);
  });

  it('returns the same messages when the fetch lists no aborted transaction', () => {
    const messages = [message(0, 'p1'), message(1, 'p1', COMMIT, true)];
    expect(filterAbortedMessages({ messages, abortedTransactions: [] })).toBe(messages);
  });

  it("answers kafkajs' broker fetches with aborted records removed and no aborted transaction listed, once however often installed", async () => {
    const calls: unknown[] = [];
    class Broker implements FetchingBroker {
      async fetch(request: unknown) {
        calls.push(request);
        return {
          responses: [
            {
              partitions: [
                {
                  abortedTransactions: [{ producerId: 'p1', firstOffset: '0' }],
                  messages: [message(0, 'p1'), message(1, 'p2'), message(2, 'p1', ABORT, true)],
                },
                { abortedTransactions: [], messages: [message(7, 'p3')] },
              ],
            },
          ],
        };
      }
    }
    installCommittedFetch(Broker);
    installCommittedFetch(Broker);
    const response = await new Broker().fetch({ isolationLevel: 1 });

    expect(calls).toEqual([{ isolationLevel: 1 }]);
    const [first, second] = response.responses[0].partitions;
    expect(first.messages.map((m) => m.offset)).toEqual(['1', '2']);
    expect(first.abortedTransactions).toEqual([]);
    expect(second.messages.map((m) => m.offset)).toEqual(['7']);
  });
});
