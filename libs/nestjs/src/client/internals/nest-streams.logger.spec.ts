import { ConsoleLogger, Logger, type LoggerService } from '@nestjs/common';
import { nestStreamsLogger } from './nest-streams.logger';

describe('nestStreamsLogger (the engine logger bridged to Nest)', () => {
  const lines: [string, string, string][] = [];
  const record =
    (level: string) =>
    (message: unknown, ...params: unknown[]): void =>
      void lines.push([level, String(params.at(-1)), String(message)]);
  const capture: LoggerService = {
    log: record('log'),
    error: record('error'),
    warn: record('warn'),
    debug: record('debug'),
    verbose: record('verbose'),
  };

  beforeEach(() => {
    lines.length = 0;
    Logger.overrideLogger(capture);
  });
  afterAll(() => Logger.overrideLogger(new Logger()));

  it("maps the engine's levels to Nest's, with the context", () => {
    const logger = nestStreamsLogger();
    logger.error('e');
    logger.warn('w');
    logger.info('i');
    logger.debug('d');
    logger.child!('kafkajs').warn('[Consumer] k');
    expect(lines).toEqual([
      ['error', 'KafkaStreams', 'e'],
      ['warn', 'KafkaStreams', 'w'],
      ['log', 'KafkaStreams', 'i'],
      ['debug', 'KafkaStreams', 'd'],
      ['warn', 'kafkajs', '[Consumer] k'],
    ]);
  });

  it("follows Nest's enabled levels", () => {
    Logger.overrideLogger(new ConsoleLogger({ logLevels: ['error', 'warn'] }));
    const seen: string[] = [];
    const spy = jest
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => seen.push(String(chunk)) > 0);
    const spyErr = jest
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: string | Uint8Array) => seen.push(String(chunk)) > 0);
    try {
      const logger = nestStreamsLogger();
      logger.info('an info line');
      logger.debug('a debug line');
      logger.warn('a warning line');
    } finally {
      spy.mockRestore();
      spyErr.mockRestore();
    }
    expect(seen.join('')).toContain('a warning line');
    expect(seen.join('')).not.toContain('an info line');
    expect(seen.join('')).not.toContain('a debug line');
  });
});
