import { HostInfo, KeyQueryMetadata } from '@nest-streams/streams';
import { decideRoute, decideStandby, type RouteInput } from './route-decision';

const self = HostInfo.parse('10.0.0.1:8080');
const owner = HostInfo.parse('10.0.0.2:8080');
const standby = HostInfo.parse('10.0.0.3:8080');
const cluster = [self, owner, standby];

const input = (metadata: KeyQueryMetadata, extra: Partial<RouteInput> = {}): RouteInput => ({
  metadata,
  self,
  clusterHosts: cluster,
  forwardedFrom: undefined,
  ...extra,
});

describe('decideRoute', () => {
  it('is local when this instance is the active host (same host and port)', () => {
    expect(
      decideRoute(input(new KeyQueryMetadata(HostInfo.parse('10.0.0.1:8080'), [], 3))),
    ).toEqual({
      action: 'local',
    });
  });

  it('is not local for the same host on another port (no off-by-one host/port comparison)', () => {
    const other = HostInfo.parse('10.0.0.1:8081');
    const decision = decideRoute(
      input(new KeyQueryMetadata(other, [], 3), { clusterHosts: [...cluster, other] }),
    );
    expect(decision).toEqual({ action: 'forward', target: other });
  });

  it('forwards to exactly the active host', () => {
    expect(decideRoute(input(new KeyQueryMetadata(owner, [standby], 1)))).toEqual({
      action: 'forward',
      target: owner,
    });
  });

  it('is unavailable while no owner is confirmed', () => {
    expect(decideRoute(input(KeyQueryMetadata.NOT_AVAILABLE)).action).toBe('unavailable');
  });

  it('never forwards a forwarded request again', () => {
    const decision = decideRoute(
      input(new KeyQueryMetadata(owner, [], 1), { forwardedFrom: '10.0.0.9:8080' }),
    );
    expect(decision.action).toBe('unavailable');
  });

  it('never forwards to a host outside the current metadata', () => {
    const stranger = HostInfo.parse('evil.example:80');
    expect(decideRoute(input(new KeyQueryMetadata(stranger, [], 1))).action).toBe('unavailable');
  });

  it('is local for a single instance without application.server', () => {
    expect(
      decideRoute(input(KeyQueryMetadata.NOT_AVAILABLE, { self: undefined, clusterHosts: [] })),
    ).toEqual({ action: 'local' });
  });
});

describe('decideStandby', () => {
  it('prefers this instance when it holds a standby copy', () => {
    expect(decideStandby(input(new KeyQueryMetadata(owner, [standby, self], 1)))).toEqual({
      action: 'local-standby',
    });
  });

  it('forwards to a standby of the current metadata, never the excluded owner', () => {
    expect(decideStandby(input(new KeyQueryMetadata(owner, [owner, standby], 1)), [owner])).toEqual(
      {
        action: 'forward-standby',
        target: standby,
      },
    );
  });

  it('is unavailable without standbys, for forwarded requests, and while rebalancing', () => {
    expect(decideStandby(input(new KeyQueryMetadata(owner, [], 1))).action).toBe('unavailable');
    expect(
      decideStandby(input(new KeyQueryMetadata(owner, [standby], 1), { forwardedFrom: 'x:1' }))
        .action,
    ).toBe('unavailable');
    expect(decideStandby(input(KeyQueryMetadata.NOT_AVAILABLE)).action).toBe('unavailable');
    const outsider = HostInfo.parse('10.9.9.9:1');
    expect(decideStandby(input(new KeyQueryMetadata(owner, [outsider], 1))).action).toBe(
      'unavailable',
    );
  });
});
