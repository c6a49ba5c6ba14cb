import { MissingSourceTopicError } from '../../../errors/missing-source-topic.error';
import { StateDirectoryLockedError } from '../../../errors/state-directory-locked.error';
import type { StreamsError } from '../../../errors/streams.error';
import { StreamsConfigError } from '../../../errors/streams-config.error';
import { heldByAnotherProcess, StartupWait, startFailureLine } from './startup-wait';

describe('StartupWait', () => {
  let clock: number;
  let lines: string[];
  let problems: (string | undefined)[];
  const logger = {
    error: (m: string) => void lines.push(`error ${m}`),
    warn: (m: string) => void lines.push(`warn ${m}`),
    info: (m: string) => void lines.push(`info ${m}`),
    debug: (m: string) => void lines.push(`debug ${m}`),
  };
  const wait = (taskTimeoutMs: number, stopped = () => false) =>
    new StartupWait({
      taskTimeoutMs,
      logger,
      onProblem: (p?: StreamsError) => void problems.push(p?.code),
      stopped,
      retryDelayMs: 1,
      now: () => (clock += 1_000),
    });
  /** A step that fails with `failures` in turn, then answers 'done'. */
  const step = (failures: unknown[]) => {
    let attempt = 0;
    return async () => {
      const failure = failures[attempt++];
      if (failure) throw failure;
      return 'done';
    };
  };
  const missing = () => new MissingSourceTopicError(['orders']);
  const isMissing = (e: unknown) => e instanceof MissingSourceTopicError;

  beforeEach(() => {
    clock = 0;
    lines = [];
    problems = [];
  });

  it('waits on a cause that may resolve itself, reporting it and logging it once', async () => {
    await expect(
      wait(60_000).retry(step([missing(), missing(), missing()]), isMissing),
    ).resolves.toBe('done');
    expect(problems).toEqual([
      'MISSING_SOURCE_TOPIC',
      'MISSING_SOURCE_TOPIC',
      'MISSING_SOURCE_TOPIC',
      undefined,
    ]);
    expect(lines).toEqual([
      'warn MissingSourceTopicError [MISSING_SOURCE_TOPIC]: source topic(s) missing: orders (create them before starting the application); the start waits for it until task.timeout.ms (60 s), then fails',
      'debug still waiting: source topic(s) missing: orders (create them before starting the application)',
      'debug still waiting: source topic(s) missing: orders (create them before starting the application)',
      'info the start goes on: the cause it waited for is resolved',
    ]);
  });

  it('fails with the cause once task.timeout.ms has passed since the first one', async () => {
    const failures = Array.from({ length: 20 }, missing);
    const error = await wait(5_000)
      .retry(step(failures), isMissing)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    // The clock moves 1 s per reading: the fifth failure comes 5 s after the first one.
    expect(error).toBe(failures[4]);
    expect(problems).toHaveLength(4);
  });

  it('throws any other error at once, and stops waiting when the client closes', async () => {
    const config = new StreamsConfigError('bad');
    await expect(wait(60_000).retry(step([config]), isMissing)).rejects.toBe(config);
    expect(problems).toEqual([]);
    let closing = false;
    const stopping = wait(60_000, () => closing);
    const failures = [missing(), missing()];
    const attempt = step(failures);
    const run = stopping.retry(async () => {
      closing = true;
      return attempt();
    }, isMissing);
    await expect(run).rejects.toBe(failures[0]);
  });
});

describe('heldByAnotherProcess and startFailureLine', () => {
  it('waits for a lock another live process holds, never for one held in this process', () => {
    expect(heldByAnotherProcess(new StateDirectoryLockedError('/s/app', 42, false))).toBe(true);
    expect(heldByAnotherProcess(new StateDirectoryLockedError('/s/app', 42, true))).toBe(false);
    expect(heldByAnotherProcess(new Error('EACCES'))).toBe(false);
  });

  it("says a failure's class and code, then its message", () => {
    expect(startFailureLine(new StateDirectoryLockedError('/s/app', 42, false))).toBe(
      'StateDirectoryLockedError [STATE_DIR_LOCKED]: state directory /s/app is locked by process 42; stop that process or use another state.dir',
    );
    expect(startFailureLine(new TypeError('x is not a function'))).toBe(
      'TypeError: x is not a function',
    );
    expect(startFailureLine('plain')).toBe('plain');
  });
});
