import { SeededRandom } from '../../../apps/event-generator/src/random';
import type { KubeProber } from './kube-prober';
import type { ClusterSeat, OrderStatsCluster, SeatAnswer } from './order-stats-cluster';

/** Why a request through the Service got no HTTP answer. */
export class ServiceConnectionError extends Error {}

/**
 * A Kubernetes Service in front of the cluster: each request goes to a random seat among the
 * endpoints — seats whose readiness passed in the prober's last polls — minus seats whose pod
 * is being deleted (Kubernetes removes those from the endpoints as soon as deletion starts, in
 * parallel with preStop). No endpoint, or a connection that fails, is a connection error for
 * the caller, as behind a real Service.
 */
export class ServiceRouter {
  private readonly random: SeededRandom;
  private readonly deleting = new Set<ClusterSeat>();
  /** Requests that found no endpoint at all. */
  noEndpoint = 0;
  /** Requests whose connection to the chosen endpoint failed. */
  connectionFailures = 0;

  constructor(
    private readonly cluster: OrderStatsCluster,
    private readonly prober: KubeProber,
    seed: number,
  ) {
    this.random = new SeededRandom(seed);
  }

  /** The pod of `seat` is being deleted: no new request goes to it. */
  removeEndpoint(seat: ClusterSeat): void {
    this.deleting.add(seat);
  }

  /** The seat's new pod may be an endpoint again (once ready). */
  restoreEndpoint(seat: ClusterSeat): void {
    this.deleting.delete(seat);
  }

  endpoints(): ClusterSeat[] {
    return this.prober.readySeats().filter((s) => !this.deleting.has(s));
  }

  /**
   * `GET path` through the Service.
   *
   * @throws ServiceConnectionError when no endpoint is ready or the connection fails.
   */
  async get(path: string): Promise<SeatAnswer & { readonly seat: ClusterSeat }> {
    const endpoints = this.endpoints();
    if (endpoints.length === 0) {
      this.noEndpoint++;
      throw new ServiceConnectionError(`no ready endpoint for GET ${path}`);
    }
    const seat = endpoints[this.random.nextInt(0, endpoints.length - 1)];
    try {
      return { ...(await this.cluster.get(seat, path)), seat };
    } catch (error) {
      this.connectionFailures++;
      throw new ServiceConnectionError(`GET ${path} to seat ${seat.index}: ${String(error)}`, {
        cause: error,
      });
    }
  }
}
