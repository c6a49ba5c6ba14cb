import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { SerializationError, UnknownStateStoreError } from '@nest-streams/streams';
import { KafkaStreamsHost } from '../../client/internals/kafka-streams.host';
import { StreamsModuleSettings } from '../../settings/internals/streams-module.settings';
import { ClusterViewBuilder, type ClusterView } from './cluster-view.builder';
import { buildDashboardDocument, type DashboardDocument } from './dashboard-page';
import { KeyInspector, type KeyInspection } from './key-inspector';
import { topologyView, type TopologyView } from './topology-view';

/** Longest key the look-up takes (as the example application's routes). */
const MAX_KEY_LENGTH = 1024;

/** The headers of every answer of the page and its data, besides its content type. */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * What the cluster page and its data answer, whichever server serves them (the application's
 * HTTP server through `StreamsDashboardController`, or the management server): the document,
 * the topology, the cluster view and the key look-up. Bad requests throw Nest's HTTP
 * exceptions (the management server answers them the same way).
 */
@Injectable()
export class DashboardApi {
  private document: DashboardDocument | undefined;
  private topologyAnswer: TopologyView | undefined;

  constructor(
    @Inject(StreamsModuleSettings) private readonly settings: StreamsModuleSettings,
    @Inject(KafkaStreamsHost) private readonly host: KafkaStreamsHost,
    @Inject(ClusterViewBuilder) private readonly clusterView: ClusterViewBuilder,
    @Inject(KeyInspector) private readonly inspector: KeyInspector,
  ) {}

  /** The page, built once from the package's assets. */
  page(): DashboardDocument {
    this.document ??= buildDashboardDocument();
    return this.document;
  }

  topology(): TopologyView {
    this.topologyAnswer ??= topologyView(this.host.streams);
    return this.topologyAnswer;
  }

  cluster(): Promise<ClusterView> {
    return this.clusterView.view();
  }

  /**
   * What every copy of `key` holds in `store`.
   *
   * @throws NotFoundException when the look-up is off (`dashboard.lookup`) or the store is
   *   unknown; BadRequestException for a missing, repeated or over-long store or key, or a key
   *   the store's key serde cannot take.
   */
  async lookup(store: unknown, key: unknown): Promise<KeyInspection> {
    if (!this.settings.dashboard.lookup) {
      throw new NotFoundException(
        'the key look-up is off: turn it on with dashboard.lookup (README, Cluster page)',
      );
    }
    if (typeof store !== 'string' || store === '' || typeof key !== 'string' || key === '') {
      throw new BadRequestException('give one store and one key: ?store=<name>&key=<key>');
    }
    if (key.length > MAX_KEY_LENGTH) {
      throw new BadRequestException(`keys are at most ${MAX_KEY_LENGTH} characters`);
    }
    try {
      return await this.inspector.inspect(store, key);
    } catch (error) {
      if (error instanceof UnknownStateStoreError) throw new NotFoundException(error.message);
      if (error instanceof SerializationError) throw new BadRequestException(error.message);
      throw error;
    }
  }
}
