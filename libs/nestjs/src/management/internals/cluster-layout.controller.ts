import { Controller, Inject, type Type } from '@nestjs/common';
import { KafkaStreamsHost } from '../../client/internals/kafka-streams.host';
import { routeGetHandlers } from '../../decorators/run-time-routes';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { clusterLayout, type ClusterLayout } from './cluster-layout';

/**
 * The cluster's layout (`GET /<management.metadataEndpoint>`) on the application's HTTP
 * server, one class per module definition. Its route exists only when the endpoint is set and
 * no `management.port` is (the management server serves it then); set as the metrics
 * endpoint's, by the constructor.
 */
export function createClusterLayoutController(): Type<unknown> {
  @Controller()
  class StreamsClusterLayoutController {
    constructor(
      @Inject(KafkaStreamsHost) private readonly host: KafkaStreamsHost,
      @Inject(StreamsModuleSettings) settings: StreamsModuleSettings,
    ) {
      const { metadataEndpoint, port } = settings.management;
      if (metadataEndpoint === undefined || port !== undefined) return;
      routeGetHandlers(StreamsClusterLayoutController, metadataEndpoint, { layout: '/' });
    }

    layout(): Promise<ClusterLayout> {
      return clusterLayout(this.host.streams);
    }
  }
  return StreamsClusterLayoutController;
}
