/**
 * An instance's advertised `application.server` endpoint, as Kafka Streams' `HostInfo`.
 * `HostInfo.UNAVAILABLE` (host `unavailable`, port -1) stands for "no confirmed owner".
 */
export class HostInfo {
  static readonly UNAVAILABLE = new HostInfo('unavailable', -1);

  constructor(
    readonly host: string,
    readonly port: number,
  ) {}

  /**
   * Parses `host:port`.
   *
   * @throws RangeError for text that is not `host:port` with a port in 1..65535: fix the
   *   `application.server` setting.
   */
  static parse(endpoint: string): HostInfo {
    const index = endpoint.lastIndexOf(':');
    const host = endpoint.slice(0, index);
    const port = Number(endpoint.slice(index + 1));
    if (index <= 0 || !Number.isInteger(port) || port < 1 || port > 65_535) {
      throw new RangeError(`'${endpoint}' is not host:port`);
    }
    return new HostInfo(host, port);
  }

  equals(other: HostInfo | undefined): boolean {
    return other !== undefined && other.host === this.host && other.port === this.port;
  }

  toString(): string {
    return `${this.host}:${this.port}`;
  }

  toJSON(): string {
    return this.toString();
  }
}
