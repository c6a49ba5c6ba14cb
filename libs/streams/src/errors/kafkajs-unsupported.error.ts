import { StreamsError } from './streams.error';

/**
 * `kafkaClient: 'kafkajs'` was chosen, and the engine could not apply its fixes to the kafkajs
 * installed: it is not the version they are written for, the engine cannot locate its modules
 * (a bundler packed them), or the application loaded kafkajs' modules before the engine. The
 * client refuses to start rather than run unpatched: without the fixes a read_committed reader
 * (the processing consumer under exactly-once, restores, standbys) can see records of aborted
 * transactions, and a record batch that compaction emptied can stall a partition.
 *
 * What to do: install the kafkajs version {@link supportedVersion} names (the one this package
 * depends on), keep it out of the bundle, and import `@nest-streams/streams` (or
 * `@nest-streams/nestjs`) before `kafkajs`; or choose `kafkaClient: '@platformatic/kafka'`. Not
 * retriable.
 */
export class KafkajsUnsupportedError extends StreamsError.coded('KAFKAJS_UNSUPPORTED', false) {
  constructor(
    /** The kafkajs version installed; `undefined` when the engine could not locate kafkajs. */
    readonly foundVersion: string | undefined,
    /** The kafkajs version the engine's fixes are written for. */
    readonly supportedVersion: string,
    /** Why the fixes are not in effect, one reason per fix or set of fixes left out. */
    readonly reasons: readonly string[],
  ) {
    super(
      `kafkaClient 'kafkajs' needs kafkajs ${supportedVersion} with the engine's fixes applied ` +
        `(read_committed reads depend on them); found ${foundVersion === undefined ? 'no kafkajs the engine can locate' : `kafkajs ${foundVersion}`}: ${reasons.join('; ')}. ` +
        `Install kafkajs ${supportedVersion} (not bundled) and import @nest-streams/streams before kafkajs, ` +
        `or choose kafkaClient '@platformatic/kafka'.`,
    );
  }
}
