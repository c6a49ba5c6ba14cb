import { InternalConfig, internalLong } from '../../../processor/internals/internal-config';
import type { ProcessorContext } from '../../../processor/processor-context';

/**
 * When an emit-on-window-close aggregation looks for closed windows (Kafka Streams'
 * `shouldEmitFinal` with its time tracker): at most once per emit interval of wall-clock time
 * (`__emit.interval.ms.kstreams.windowed.aggregation__`, default 1000 ms), and only once the
 * window close time moved past the last emission's. The last emission's close time is kept
 * in the task's processor metadata under the store's name, where the context has it.
 */
export class WindowCloseSchedule {
  /** The window close time of the last emission; -1 before any. */
  lastEmitWindowCloseTime = -1;
  private nextTimeToEmit = 0;
  private emitIntervalMs = 1000;
  private context!: ProcessorContext<unknown, unknown>;

  constructor(private readonly storeName: string) {}

  init(context: ProcessorContext<unknown, unknown>): void {
    this.context = context;
    this.lastEmitWindowCloseTime = context.processorMetadataForKey?.(this.storeName) ?? -1;
    this.emitIntervalMs = internalLong(
      context.appConfigs,
      InternalConfig.EMIT_INTERVAL_MS_KSTREAMS_WINDOWED_AGGREGATION,
      1000,
    );
  }

  /** Whether to look for windows closed up to `windowCloseTime` now (starts a new interval). */
  due(windowCloseTime: number): boolean {
    const now = this.context.currentSystemTimeMs();
    if (now < this.nextTimeToEmit) return false;
    this.nextTimeToEmit = now + this.emitIntervalMs;
    return this.lastEmitWindowCloseTime === -1 || this.lastEmitWindowCloseTime < windowCloseTime;
  }

  /** Records that the windows closed up to `windowCloseTime` were emitted. */
  emitted(windowCloseTime: number): void {
    this.lastEmitWindowCloseTime = windowCloseTime;
    this.context.addProcessorMetadataKeyValue?.(this.storeName, windowCloseTime);
  }
}
