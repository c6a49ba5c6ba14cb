import { installFetchEnds, observeFetchEnds, type FetchedPartitionEnd } from './fetch-ends';

/** A kafkajs `Broker` double whose fetch answers what the test gives it. */
function brokerClass(answer: unknown) {
  class Broker {
    async fetch(): Promise<unknown> {
      return answer;
    }
  }
  installFetchEnds(Broker as never);
  return Broker as unknown as new () => { fetch(request: unknown): Promise<unknown> };
}

const REQUEST = {
  topics: [
    {
      topic: 'in',
      partitions: [
        { partition: 0, fetchOffset: '5' },
        { partition: 1, fetchOffset: '0' },
        { partition: 2, fetchOffset: '7' },
      ],
    },
  ],
};

const RESPONSE = {
  responses: [
    {
      topicName: 'in',
      partitions: [
        { partition: 0, errorCode: 0, highWatermark: '12', lastStableOffset: '9' },
        { partition: 1, errorCode: 0, highWatermark: '4', lastStableOffset: '-1' },
        { partition: 2, errorCode: 6, highWatermark: '-1', lastStableOffset: '-1' },
      ],
    },
  ],
};

describe('kafkajs fetch ends', () => {
  it('reports each partition’s end (last stable offset, else high watermark) to the fetch loop that asked', async () => {
    const Broker = brokerClass(RESPONSE);
    const seen: FetchedPartitionEnd[][] = [];
    const response = await observeFetchEnds(
      (ends) => seen.push([...ends]),
      // A loop started inside keeps the observer (as kafkajs' fetch loop inside `run`).
      () => new Promise((resolve) => setImmediate(() => resolve(new Broker().fetch(REQUEST)))),
    );
    expect(response).toBe(RESPONSE);
    expect(seen).toEqual([
      [
        { topic: 'in', partition: 0, fetchOffset: 5, end: 9 },
        { topic: 'in', partition: 1, fetchOffset: 0, end: 4 },
      ],
    ]);
  });

  it('tells nobody of a fetch made outside an observed loop, and patches once', async () => {
    const Broker = brokerClass(RESPONSE);
    const patched = Broker.prototype.fetch;
    installFetchEnds(Broker as never);
    expect(Broker.prototype.fetch).toBe(patched);
    const seen: unknown[] = [];
    observeFetchEnds(
      () => seen.push('observed'),
      () => undefined,
    );
    await expect(new Broker().fetch(REQUEST)).resolves.toBe(RESPONSE);
    expect(seen).toEqual([]);
  });
});
