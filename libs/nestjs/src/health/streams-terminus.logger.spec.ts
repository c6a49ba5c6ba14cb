import { Logger } from '@nestjs/common';
import { StreamsTerminusLogger } from './streams-terminus.logger';

/** terminus' line for a failed check (its JSON error style). */
const failed = (details: unknown) => `Health Check has failed! ${JSON.stringify(details)}`;
const streamsDown = {
  status: 'down',
  state: 'REBALANCING',
  rebalancing: true,
  started: false,
  shuttingDown: false,
  reason: 'starting: the first assignment is not restored yet (REBALANCING)',
  code: 'STARTING',
  stores: {},
  rebalances: 1,
};

describe('StreamsTerminusLogger', () => {
  let errors: unknown[];
  let logs: unknown[];
  beforeEach(() => {
    errors = [];
    logs = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((m: unknown) => void errors.push(m));
    jest.spyOn(Logger.prototype, 'log').mockImplementation((m: unknown) => void logs.push(m));
  });
  afterEach(() => jest.restoreAllMocks());

  it('leaves a check down only through the streams indicator to the indicator', () => {
    const logger = new StreamsTerminusLogger();
    logger.error(failed({ streams: streamsDown }));
    logger.error(failed({ ready: streamsDown, other: { status: 'up' } }));
    expect(errors).toEqual([]);
  });

  it('logs any other failed check, and any other line, as terminus would', () => {
    const logger = new StreamsTerminusLogger();
    const database = failed({ streams: streamsDown, db: { status: 'down', message: 'timeout' } });
    logger.error(database);
    logger.error(failed({ db: { status: 'down' } }));
    logger.error('Health Check has failed! (pretty style, not JSON)');
    logger.error(failed({ streams: { ...streamsDown, code: undefined } }));
    logger.log('Terminus: graceful shutdown');
    expect(errors).toEqual([
      database,
      failed({ db: { status: 'down' } }),
      'Health Check has failed! (pretty style, not JSON)',
      failed({ streams: { ...streamsDown, code: undefined } }),
    ]);
    expect(logs).toEqual(['Terminus: graceful shutdown']);
  });
});
