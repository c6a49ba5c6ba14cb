import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateDirectoryLockedError } from '../errors/state-directory-locked.error';
import { StreamsRunningError } from '../errors/streams-running.error';
import { Topology } from '../processor/topology';
import { KafkaStreams } from './kafka-streams';
import { KafkaStreamsState } from './kafka-streams-state';
import { StateDirectory } from './internals/task-state/state-directory';

const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };

describe('KafkaStreams.cleanUp()', () => {
  let stateDir: string;
  beforeEach(() => (stateDir = mkdtempSync(join(tmpdir(), 'clean-up-spec-'))));
  afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

  const streams = () =>
    new KafkaStreams(
      new Topology().addSource('source', 'input'),
      {
        applicationId: 'clean-up-spec',
        bootstrapServers: ['127.0.0.1:1'],
        stateDir,
        taskTimeoutMs: 200,
      },
      { logger: { ...quiet, debug: () => undefined } },
    );

  it('deletes every task directory of the application before start, and nothing else', async () => {
    const appDir = join(stateDir, 'clean-up-spec');
    for (const task of ['0_0', '0_1', '1_2']) {
      mkdirSync(join(appDir, task, 'rocksdb', 'counts'), { recursive: true });
      writeFileSync(join(appDir, task, '.checkpoint'), '0\n0\n');
    }
    writeFileSync(join(appDir, 'kafka-streams-process-metadata'), '{"processId":"p"}');
    mkdirSync(join(stateDir, 'other-app', '0_0'), { recursive: true });

    await streams().cleanUp();

    expect(readdirSync(appDir).sort()).toEqual(['kafka-streams-process-metadata']);
    expect(readdirSync(join(stateDir, 'other-app'))).toEqual(['0_0']);
  });

  it('refuses while the client is started, and works again once it stopped', async () => {
    // Another holder of the state directory makes start() fail fast, after it left CREATED.
    const holder = new StateDirectory({ stateDir, applicationId: 'clean-up-spec' });
    await holder.lock();
    const client = streams();
    const started = client.start().catch((error: unknown) => error);
    expect(client.state).toBe(KafkaStreamsState.REBALANCING);
    const refused = await client.cleanUp().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StreamsRunningError);
    expect((refused as StreamsRunningError).message).toBe(
      'cleanUp() needs a client that is not running (state REBALANCING): call it before start() or after close()',
    );
    expect(await started).toBeInstanceOf(StateDirectoryLockedError);
    await client.close();
    await holder.unlock();
    mkdirSync(join(stateDir, 'clean-up-spec', '0_0'), { recursive: true });
    await client.cleanUp();
    expect(existsSync(join(stateDir, 'clean-up-spec', '0_0'))).toBe(false);
  });
});
