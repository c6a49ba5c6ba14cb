import { Admin, type BaseOptions } from '@platformatic/kafka';
import { GroupCoordinatorUnconfirmedError } from '../../errors/internals/group-coordinator-unconfirmed.error';
import { PlatformaticConfirmedReads } from './platformatic-confirmed-reads';

/** What the check asks the brokers through (an admin client's confirmed reads). */
export interface HeartbeatCoordinatorAsker {
  confirmGroupCoordinator(groupId: string, nodeId: number): Promise<void>;
  close(): Promise<void>;
}

/** An asker on a platformatic admin client of its own, made with the consumer's options. */
function adminAsker(clientOptions: BaseOptions): HeartbeatCoordinatorAsker {
  const admin = new Admin(clientOptions);
  const reads = new PlatformaticConfirmedReads(admin);
  return {
    confirmGroupCoordinator: (groupId, nodeId) => reads.confirmGroupCoordinator(groupId, nodeId),
    close: () => (admin.close() as Promise<void>).catch(() => undefined),
  };
}

/**
 * A platformatic member's `GroupConsumer.confirmHeartbeatCoordinator`: remembers which node
 * answered its latest heartbeat and, when asked, has the other brokers name the group's
 * coordinator (see `PlatformaticConfirmedReads.confirmGroupCoordinator`). The admin client that
 * asks is made at the first check (a member in doubt is rare) and closed with the member.
 */
export class PlatformaticHeartbeatCoordinatorCheck {
  private answeredBy: number | undefined;
  private asker: HeartbeatCoordinatorAsker | undefined;
  private closed = false;

  constructor(
    private readonly groupId: string,
    private readonly makeAsker: () => HeartbeatCoordinatorAsker,
  ) {}

  /** For a member made with `clientOptions`. */
  static of(groupId: string, clientOptions: BaseOptions): PlatformaticHeartbeatCoordinatorCheck {
    return new PlatformaticHeartbeatCoordinatorCheck(groupId, () => adminAsker(clientOptions));
  }

  /** A heartbeat was answered by node `nodeId` (the member's coordinator when it was sent). */
  answered(nodeId: number | null | undefined): void {
    if (nodeId !== null && nodeId !== undefined) this.answeredBy = nodeId;
  }

  /**
   * Confirms the node that answered the latest heartbeat as the group's coordinator.
   *
   * @throws GroupCoordinatorUnconfirmedError (retriable) when another broker names another
   *   coordinator, none answered, no heartbeat was answered yet, or the member is closing;
   *   platformatic's errors (network errors, timeouts) otherwise. The member stays in doubt; the
   *   next answer is checked.
   */
  async confirm(): Promise<void> {
    const nodeId = this.answeredBy;
    if (nodeId === undefined || this.closed) {
      throw new GroupCoordinatorUnconfirmedError(
        this.groupId,
        this.closed
          ? 'UNCONFIRMED: the member is closing'
          : 'UNCONFIRMED: no heartbeat answered yet',
        { answer: 'heartbeat' },
      );
    }
    this.asker ??= this.makeAsker();
    await this.asker.confirmGroupCoordinator(this.groupId, nodeId);
  }

  /** Closes the admin client, if one was made. Never throws. */
  async close(): Promise<void> {
    this.closed = true;
    await this.asker?.close();
  }
}
