import { freePort } from '@nest-streams/testing/kafka';
import type { StreamsMetricsService } from '../src/metrics/streams-metrics.service';
import { InteractiveQueryServer } from '../src/queries/internals/interactive-query.server';
import type { RefusalReason } from '../src/security/internals/instance.authenticator';
import type { StreamsModuleSettings } from '../src/settings/internals/streams-module.settings';
import { FakeKafkaStreams } from './fake-kafka-streams';

/** A query server listening on a local port, over a fake client, and the refusals it counted. */
export interface ListeningQueryServer {
  readonly port: number;
  /** `127.0.0.1:<port>`. */
  readonly endpoint: string;
  readonly streams: FakeKafkaStreams;
  readonly server: InteractiveQueryServer;
  /** What the server passed to `StreamsMetricsService.recordQueryRefusal`, in order. */
  readonly reasons: RefusalReason[];
}

/**
 * Starts a query server on a free local port, with `settings(port)`, over a fake client that
 * answers every query with `answer`; close it with `server.close()`.
 *
 * @throws what `InteractiveQueryServer.listen()` throws (the port taken meanwhile: run again).
 */
export async function listeningQueryServer(
  settings: (port: number) => StreamsModuleSettings,
  answer: FakeKafkaStreams['answer'],
): Promise<ListeningQueryServer> {
  const port = await freePort();
  const streams = new FakeKafkaStreams();
  streams.answer = answer;
  const reasons: RefusalReason[] = [];
  const metrics = { recordQueryRefusal: (reason: RefusalReason) => reasons.push(reason) };
  const server = new InteractiveQueryServer(
    settings(port),
    streams.asKafkaStreams(),
    metrics as unknown as StreamsMetricsService,
  );
  await server.listen();
  return { port, endpoint: `127.0.0.1:${port}`, streams, server, reasons };
}
