import { ProtocolError, ResponseError, type API, type Callback } from '@platformatic/kafka';
import { CommitFailedError } from '../../errors/internals/commit-failed.error';
import { FencedInstanceIdError } from '../../errors/internals/fenced-instance-id.error';
import { MemberFencedError } from '../../errors/internals/member-fenced.error';
import { commitRefusal } from '../group-error-names';
import { platformaticGroupError } from './platformatic-group-errors';
import {
  hasFencedInstanceId,
  PlatformaticStaticMembership,
} from './platformatic-static-membership';

type Raw = (...args: unknown[]) => void;

/** A platformatic API that answers each call with the next of `answers`, recording the calls. */
function fakeApi(answers: [Error | null, unknown][]) {
  const calls: unknown[][] = [];
  const api = ((...args: unknown[]) => {
    const callback = args.pop() as Callback<unknown>;
    calls.push(args);
    const [error, response] = answers.shift() ?? [null, {}];
    callback(error, response);
  }) as unknown as API<unknown[], unknown>;
  return { api, calls };
}

function call(api: API<unknown[], unknown>, ...args: unknown[]) {
  return new Promise<{ error: Error | null; response: unknown }>((resolve) =>
    (api as unknown as Raw)(...args, (error: Error | null, response: unknown) =>
      resolve({ error, response }),
    ),
  );
}

/** The error platformatic reports for a response with a Kafka error code. */
const responseError = (code: number) =>
  new ResponseError(12, 4, { '': [code, null] }, { errorCode: code });

describe('PlatformaticStaticMembership', () => {
  it('sends LeaveGroup until asked to remain in the group, then answers it locally', async () => {
    const membership = new PlatformaticStaticMembership('app', 'order-stats-0');
    const { api, calls } = fakeApi([[null, { errorCode: 0, members: [] }]]);
    const leave = membership.wrap('LeaveGroup', api);
    expect((await call(leave, 'conn', 'app', [{ memberId: 'm1' }])).error).toBeNull();
    expect(calls).toEqual([['conn', 'app', [{ memberId: 'm1' }]]]);
    membership.remainInGroup();
    expect(await call(leave, 'conn', 'app', [{ memberId: 'm1' }])).toEqual({
      error: null,
      response: { throttleTimeMs: 0, errorCode: 0, members: [] },
    });
    expect(calls).toHaveLength(1);
  });

  it('once a heartbeat is answered FENCED_INSTANCE_ID, refuses every JoinGroup and SyncGroup locally', async () => {
    const membership = new PlatformaticStaticMembership('app', 'order-stats-0');
    const fencedAnswer = responseError(82);
    const heartbeat = fakeApi([
      [null, { errorCode: 0 }],
      [fencedAnswer, undefined],
    ]);
    const join = fakeApi([[null, { memberId: 'm1' }]]);
    const wrappedHeartbeat = membership.wrap('Heartbeat', heartbeat.api);
    const wrappedJoin = membership.wrap('JoinGroup', join.api);
    expect((await call(wrappedJoin, 'conn')).response).toEqual({ memberId: 'm1' });
    expect((await call(wrappedHeartbeat, 'conn')).error).toBeNull();
    expect(membership.fenced).toBeUndefined();
    // The heartbeat's own error reaches platformatic as it was (it rejoins on it)...
    expect((await call(wrappedHeartbeat, 'conn')).error).toBe(fencedAnswer);
    expect(membership.fenced).toBeInstanceOf(FencedInstanceIdError);
    expect(membership.fenced).toMatchObject({
      code: 'FENCED_INSTANCE_ID',
      retriable: false,
      groupId: 'app',
      groupInstanceId: 'order-stats-0',
      cause: fencedAnswer,
    });
    // ...and the rejoin fails locally, with an error platformatic does not retry.
    for (const name of ['JoinGroup', 'SyncGroup']) {
      const api = fakeApi([]);
      const answer = await call(membership.wrap(name, api.api), 'conn');
      expect(answer.error).toBe(membership.fenced);
      expect(api.calls).toEqual([]);
    }
    expect(join.calls).toHaveLength(1);
    // Other APIs pass through untouched.
    const fetch = fakeApi([]);
    expect(membership.wrap('Fetch', fetch.api)).toBe(fetch.api);
  });

  it('is fenced by a JoinGroup answer, and by an offset commit through fence()', async () => {
    const byJoin = new PlatformaticStaticMembership('app', 'a');
    await call(byJoin.wrap('JoinGroup', fakeApi([[new ProtocolError(82), undefined]]).api));
    expect(byJoin.fenced?.groupInstanceId).toBe('a');
    const byCommit = new PlatformaticStaticMembership('app', 'b');
    const first = byCommit.fence(responseError(82));
    expect(byCommit.fence(new Error('later'))).toBe(first);
    const notFenced = new PlatformaticStaticMembership('app', 'c');
    await call(notFenced.wrap('Heartbeat', fakeApi([[responseError(27), undefined]]).api));
    expect(notFenced.fenced).toBeUndefined();
  });

  it('finds FENCED_INSTANCE_ID in platformatic errors, nested or not', () => {
    expect(hasFencedInstanceId(new ProtocolError('FENCED_INSTANCE_ID'))).toBe(true);
    expect(hasFencedInstanceId(responseError(82))).toBe(true);
    expect(hasFencedInstanceId(new Error('x', { cause: responseError(82) }))).toBe(true);
    expect(hasFencedInstanceId(responseError(22))).toBe(false);
    expect(hasFencedInstanceId(new Error('FENCED_INSTANCE_ID'))).toBe(false);
  });
});

describe('platformaticGroupError and commits of a static member', () => {
  it('types FENCED_INSTANCE_ID as FencedInstanceIdError with the instance id, the others as before', () => {
    const fenced = platformaticGroupError('app', 'm1', responseError(82), {
      groupInstanceId: 'order-stats-1',
    });
    expect(fenced).toBeInstanceOf(FencedInstanceIdError);
    expect(fenced).toMatchObject({ groupInstanceId: 'order-stats-1', retriable: false });
    expect(platformaticGroupError('app', 'm1', responseError(22))).toBeInstanceOf(
      MemberFencedError,
    );
    expect(platformaticGroupError('app', 'm1', new Error('ECONNREFUSED'))).toBeUndefined();
  });

  it('throws a fenced commit as FencedInstanceIdError, a moved-on group as CommitFailedError', () => {
    const fenced = new FencedInstanceIdError('app', 'a');
    expect(commitRefusal('app', fenced)).toBe(fenced);
    const moved = new MemberFencedError('app', 'illegal-generation');
    const refusal = commitRefusal('app', moved);
    expect(refusal).toBeInstanceOf(CommitFailedError);
    expect(refusal.cause).toBe(moved);
  });
});
