import { RefusalLog } from './refusal.log';

describe('RefusalLog', () => {
  it('logs the first refusal of a reason at once, then at most once per interval', () => {
    let now = 0;
    const lines: string[] = [];
    const log = new RefusalLog((line) => lines.push(line), {
      intervalMs: 10_000,
      clock: () => now,
    });
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

  it('names the subject and its own meanings, and counts each reason apart', () => {
    let now = 0;
    const lines: string[] = [];
    const log = new RefusalLog((line) => lines.push(line), {
      subject: 'the hop of a forwarded request',
      meanings: { unauthenticated: 'hop headers without a token' },
      clock: () => now,
    });
    log.refused('replayed', '10.1.1.1', 'pod-1:8080');
    log.refused('unauthenticated', '10.1.1.2');
    log.refused('replayed', '10.1.1.1');
    now = 10_000;
    log.refused('replayed', '10.1.1.3');
    expect(lines).toEqual([
      'refused the hop of a forwarded request from 10.1.1.1 claiming to be pod-1:8080: replayed, a message accepted once already, sent again',
      'refused the hop of a forwarded request from 10.1.1.2: unauthenticated, hop headers without a token',
      'refused the hop of a forwarded request from 10.1.1.3: replayed, a message accepted once already, sent again (and 1 more for this reason since the last such line)',
    ]);
  });
});
