import { QueryRefusalLog } from './query-refusal.log';

describe('QueryRefusalLog', () => {
  it('logs the first refusal of a reason at once, then at most once per interval', () => {
    let now = 0;
    const lines: string[] = [];
    const log = new QueryRefusalLog(
      (line) => lines.push(line),
      10_000,
      () => now,
    );
    log.refused('bad_signature', '10.1.1.1:5000', 'pod-0:18080');
    for (let i = 0; i < 1000; i++) log.refused('bad_signature', '10.1.1.1:5001');
    log.refused('unauthenticated', '10.1.1.2:6000');
    expect(lines).toEqual([
      'refused an instance-to-instance message from 10.1.1.1:5000 claiming to be pod-0:18080: bad_signature, a wrong HMAC: a forged message, or an instance with another security.clusterSecret',
      'refused an instance-to-instance message from 10.1.1.2:6000: unauthenticated, a message without the cluster envelope: not an instance of this application',
    ]);
    now = 9_999;
    log.refused('bad_signature', undefined);
    expect(lines).toHaveLength(2);
    now = 10_000;
    log.refused('bad_signature', undefined);
    expect(lines[2]).toBe(
      'refused an instance-to-instance message from an unknown address: bad_signature, a wrong HMAC: a forged message, or an instance with another security.clusterSecret (and 1001 more for this reason since the last such line)',
    );
    now = 30_000;
    log.refused('bad_signature', '10.1.1.1:5002');
    expect(lines[3]).not.toContain('more for this reason');
  });
});
