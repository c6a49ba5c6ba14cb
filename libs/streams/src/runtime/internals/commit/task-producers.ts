import type { ClusterAdmin } from '../../../client/cluster-admin';
import type { RecordProducer, RecordProducerFactory } from '../../../client/record-producer';
import type { StateLogger } from '../../../logging/logger';
import { KafkaRecordCollector } from '../../../processor/internals/kafka-record-collector';
import type { RecordCollector } from '../../../processor/internals/record-collector';
import type { ResolvedStreamsConfig } from '../../streams-config';
import { EosProducer } from './eos-producer';

/** The coordinator's timeout of a task's open transaction (kept from the kafkajs producer's). */
export const EOS_TRANSACTION_TIMEOUT_MS = 60_000;
/**
 * The coordinator's timeout of a thread's open transaction: Kafka Streams' `transaction.timeout.ms`
 * under exactly-once (10 s). A zombie's open transaction holds back the last stable offset of
 * every partition it wrote to, which the next owner's restore and stable offset read wait for.
 */
export const THREAD_TRANSACTION_TIMEOUT_MS = 10_000;

/** What a {@link TaskProducers} is made with. */
export interface TaskProducersOptions {
  readonly config: ResolvedStreamsConfig;
  /** Creates the shared idempotent producer and the transactional producers. */
  readonly producers: RecordProducerFactory;
  /** Whether the cluster's admin reads stable offsets (KIP-447's `require_stable`). */
  readonly admin: ClusterAdmin;
  /**
   * The transactional id of the thread's producer under exactly-once with KIP-447
   * (`<applicationId>-<processId>-<thread>`), read when the thread starts.
   */
  threadTransactionalId(): string;
  readonly logger: StateLogger;
}

/** The thread's transaction under exactly-once with KIP-447. */
export interface ThreadTransaction {
  readonly producer: EosProducer;
  /** The collector over {@link producer}, shared by the thread's tasks. */
  readonly collector: KafkaRecordCollector;
  readonly applicationId: string;
}

/** A task's side of the producers: where its records go, and its own transaction, if any. */
export interface TaskOutput {
  readonly collector: RecordCollector;
  /** The task's own transactional producer (exactly-once without KIP-447 only). */
  readonly eosProducer?: EosProducer;
}

/**
 * The producers a stream thread's tasks write through, by processing guarantee (what a commit
 * does with them: `commit-protocol.ts`):
 *
 * - at-least-once: one idempotent producer, shared by the thread's tasks;
 * - exactly-once, one transaction per thread (KIP-447), where the client's producer sends the
 *   group's metadata with the offsets and its admin reads stable offsets (@platformatic/kafka):
 *   the thread's transactional producer, shared by its tasks;
 * - exactly-once, one transaction per task otherwise (kafkajs): each task's own transactional
 *   producer, `<applicationId>-<taskId>`, made when the task opens (see {@link EosProducer}).
 *
 * A shared producer's records go through one collector, which {@link forTask} hands every task.
 */
export class TaskProducers {
  private sharedProducer: RecordProducer | undefined;
  private sharedCollector: KafkaRecordCollector | undefined;
  /** Exactly-once with KIP-447: the thread's transactional producer, shared by its tasks. */
  private threadProducer: EosProducer | undefined;

  constructor(private readonly options: TaskProducersOptions) {}

  get exactlyOnce(): boolean {
    return this.options.config.processingGuarantee === 'exactly_once_v2';
  }

  /** The group the offsets are committed for (under exactly-once, in the transactions). */
  get applicationId(): string {
    return this.options.config.applicationId;
  }

  /** Whether the tasks share one transaction per thread (exactly-once with KIP-447). */
  get transactionPerThread(): boolean {
    return this.threadProducer !== undefined;
  }

  /**
   * Connects the shared producer: idempotent under at-least-once; under exactly-once the
   * thread's transactional producer when the client has KIP-447 (else each task gets its own).
   */
  async start(): Promise<void> {
    const { producers, admin } = this.options;
    if (!this.exactlyOnce) {
      this.sharedProducer = producers.idempotent();
      await this.sharedProducer.connect();
      this.sharedCollector = new KafkaRecordCollector({ sender: this.sharedProducer });
      return;
    }
    const producer = producers.transactional(
      this.options.threadTransactionalId(),
      THREAD_TRANSACTION_TIMEOUT_MS,
    );
    if (!producer.supportsGroupMetadata || !admin.supportsRequireStable) return;
    await this.connectThreadProducer(producer);
    this.options.logger.info(
      `exactly-once: one transactional producer for the thread's tasks (KIP-447), ${producer.transactionalId}`,
    );
  }

  /**
   * Exactly-once with KIP-447, after the thread's tasks were closed dirty (they migrated):
   * replaces the thread's producer, whose epoch may have been bumped (fenced) meanwhile.
   */
  async resetThreadProducer(): Promise<void> {
    const old = this.threadProducer;
    if (!old) return;
    this.threadProducer = undefined;
    await old.disconnect().catch(() => undefined);
    await this.connectThreadProducer(
      this.options.producers.transactional(
        this.options.threadTransactionalId(),
        THREAD_TRANSACTION_TIMEOUT_MS,
      ),
    );
  }

  private async connectThreadProducer(producer: RecordProducer): Promise<void> {
    const threadProducer = new EosProducer(producer);
    await threadProducer.connect();
    this.threadProducer = threadProducer;
    this.sharedCollector = new KafkaRecordCollector({ sender: threadProducer });
  }

  /**
   * The output of task `taskId`, opening now: under exactly-once without KIP-447 its own
   * transactional producer, connected (which fences the task's previous owner), and a collector
   * over it; otherwise the shared collector.
   */
  async forTask(taskId: string): Promise<TaskOutput> {
    if (!this.exactlyOnce || this.threadProducer) return { collector: this.sharedCollector! };
    const eosProducer = new EosProducer(
      this.options.producers.transactional(
        `${this.applicationId}-${taskId}`,
        EOS_TRANSACTION_TIMEOUT_MS,
      ),
    );
    await eosProducer.connect();
    return { collector: new KafkaRecordCollector({ sender: eosProducer }), eosProducer };
  }

  /** At-least-once: the collector over the shared idempotent producer. */
  collector(): KafkaRecordCollector {
    return this.sharedCollector!;
  }

  /** Exactly-once with KIP-447: the thread's transaction (undefined otherwise). */
  threadTransaction(): ThreadTransaction | undefined {
    if (!this.threadProducer) return undefined;
    return {
      producer: this.threadProducer,
      collector: this.sharedCollector!,
      applicationId: this.applicationId,
    };
  }

  /**
   * Aborts the thread's open transaction, if any (a task of it closes dirty); resolves true when
   * one was open: its other tasks' uncommitted work is dropped with it.
   */
  async abortThreadTransaction(): Promise<boolean | undefined> {
    return this.threadProducer?.abort();
  }

  /** After an abort: a new collector, so the aborted sends (and their errors) stay behind. */
  dropAbortedSends(): void {
    if (this.threadProducer) {
      this.sharedCollector = new KafkaRecordCollector({ sender: this.threadProducer });
    }
  }

  /** Disconnects the shared producers, after `clean` flushed what the shared collector holds. */
  async close(clean: boolean): Promise<void> {
    if (this.sharedCollector && clean) await this.sharedCollector.flush().catch(() => undefined);
    await this.sharedProducer?.disconnect().catch(() => undefined);
    await this.threadProducer?.disconnect().catch(() => undefined);
    this.sharedProducer = undefined;
    this.sharedCollector = undefined;
    this.threadProducer = undefined;
  }
}
