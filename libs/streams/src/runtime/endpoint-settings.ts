import { StreamsConfigError } from '../errors/streams-config.error';

/** The settings of a config that name hosts and ports. */
export interface EndpointSettings {
  readonly bootstrapServers: readonly string[];
  readonly applicationServer?: string;
  readonly queryEndpoint?: string;
}

/**
 * Checks `bootstrap.servers` (at least one `host:port`), `application.server` and
 * `queryEndpoint` (`host:port`, port 1-65535).
 *
 * @throws StreamsConfigError naming the setting and its value: fix the config (never retriable).
 */
export function checkEndpoints(config: EndpointSettings): void {
  if (!Array.isArray(config.bootstrapServers) || config.bootstrapServers.length === 0) {
    throw new StreamsConfigError('bootstrap.servers must list at least one host:port');
  }
  for (const server of config.bootstrapServers) {
    if (!/^[^\s:]+:\d+$/.test(server))
      throw new StreamsConfigError(`bootstrap.servers entry '${server}' is not host:port`);
  }
  if (config.applicationServer !== undefined && !isHostAndPort(config.applicationServer)) {
    throw new StreamsConfigError(
      `application.server must be host:port (port 1-65535), got '${String(config.applicationServer)}'`,
    );
  }
  if (config.queryEndpoint !== undefined && !isHostAndPort(config.queryEndpoint)) {
    throw new StreamsConfigError(
      `queryEndpoint must be host:port (port 1-65535), got '${String(config.queryEndpoint)}'`,
    );
  }
}

/** `host:port` with a host of no spaces, colons or slashes and a port in 1..65535. */
function isHostAndPort(endpoint: unknown): boolean {
  if (typeof endpoint !== 'string') return false;
  const match = /^[^\s:/]+:(\d{1,5})$/.exec(endpoint);
  const port = Number(match?.[1]);
  return match !== null && port >= 1 && port <= 65_535;
}
