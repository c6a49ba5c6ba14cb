import type { Predicate } from './functions';
import type { Branched } from './branched';
import { KStreamBranchProcessor } from './internals/kstream-branch.processor';
import { PassThroughProcessor } from './internals/pass-through.processor';
import type { StreamNode } from './internals/stream-node';
import type { KStream } from './kstream';

/**
 * The result of `KStream.split()` (Kafka Streams' `BranchedKStream`): add branches in order
 * with `branch(predicate, Branched.as(name))`, then finish with `defaultBranch()` (records no
 * predicate matched) or `noDefaultBranch()` (they are dropped). Each record goes to the first
 * branch whose predicate matches, and to that one only.
 *
 * The finishing call returns the branches by name: `<split name><branch name>`, where the
 * split name is the `Named` given to `split` (else the generated `KSTREAM-BRANCH-<index>`)
 * and the branch name is the `Branched` name (else the branch's position from 1; the default
 * branch's is 0).
 *
 * @example
 * const branches = stream.split(Named.as('amount-'))
 *   .branch((k, v) => v.amount >= 100, Branched.as('large'))
 *   .defaultBranch(Branched.as('small'));
 * branches.get('amount-large')!.to('large-orders');
 */
export class BranchedKStream<K, V> {
  private readonly predicates: Predicate<K, V>[] = [];
  private readonly childNames: string[] = [];
  private readonly branches = new Map<string, KStream<K, V>>();

  /** @internal Made by `KStream.split`. */
  constructor(
    private readonly source: StreamNode<K, V>,
    private readonly splitterName: string,
    /** @internal Makes a branch's stream (needing a repartition when the split one did). */
    private readonly branchOf: (node: StreamNode<K, V>) => KStream<K, V>,
  ) {
    const predicates = this.predicates;
    const childNames = this.childNames;
    source.builder.topology.addProcessor(
      splitterName,
      () => new KStreamBranchProcessor<K, V>(predicates, childNames),
      source.name,
    );
  }

  /**
   * Adds a branch for the records `predicate` matches (and no earlier branch did).
   *
   * @throws TopologyError when the branch's node name is taken (two branches with one name).
   */
  branch(predicate: Predicate<K, V>, branched?: Branched<K, V>): this {
    this.predicates.push(predicate);
    this.createBranch(branched, this.predicates.length);
    return this;
  }

  /**
   * Adds the default branch (records no predicate matched) and returns the branches.
   *
   * @throws TopologyError when the branch's node name is taken.
   */
  defaultBranch(branched?: Branched<K, V>): Map<string, KStream<K, V>> {
    this.createBranch(branched, 0);
    return this.branches;
  }

  /** Returns the branches; records no predicate matched are dropped. */
  noDefaultBranch(): Map<string, KStream<K, V>> {
    return this.branches;
  }

  private createBranch(branched: Branched<K, V> | undefined, index: number): void {
    const name = `${this.splitterName}${branched?.name ?? String(index)}`;
    const { builder } = this.source;
    builder.burnIndex();
    builder.topology.addProcessor(name, () => new PassThroughProcessor<K, V>(), this.splitterName);
    this.childNames.push(name);
    const stream = this.branchOf({ ...this.source, name });
    if (branched?.chainFunction !== undefined) {
      const result = branched.chainFunction(stream);
      if (result !== undefined) this.branches.set(name, result);
    } else if (branched?.chainConsumer !== undefined) {
      branched.chainConsumer(stream);
    } else {
      this.branches.set(name, stream);
    }
  }
}
