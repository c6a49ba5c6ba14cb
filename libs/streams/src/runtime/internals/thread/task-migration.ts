/** What a {@link TaskMigration} does, in the stream thread's terms. */
export interface TaskMigrationSteps {
  /** Closes the migrated tasks dirty (`closeMigratedTasks`). */
  close(error: unknown): Promise<void>;
  /** Rejoins the group. */
  rejoin(): Promise<void>;
  /** True once the thread stops: no rejoin then. */
  stopping(): boolean;
  /** A closing or rejoin that failed: the thread fails. */
  failed(error: unknown): void;
}

/**
 * The stream thread's migrations of its tasks (`closeMigratedTasks`), one at a time. A
 * migration asked while one runs adds nothing to the closing under way, which closes what it
 * would; its rejoin, though, still follows that closing (a lost membership closes without one,
 * as the consumer rejoins by itself, unless its own rejoin is what failed).
 */
export class TaskMigration {
  private running = false;
  private rejoinAfter = false;

  constructor(private readonly steps: TaskMigrationSteps) {}

  /** True while tasks are being closed (or the member rejoins) for a migration. */
  get active(): boolean {
    return this.running;
  }

  /** Closes the tasks for `error`, then rejoins when asked (now or meanwhile). Never rejects. */
  async start(error: unknown, rejoin: boolean): Promise<void> {
    this.rejoinAfter ||= rejoin;
    if (this.running) return;
    this.running = true;
    try {
      await this.steps.close(error);
      while (this.rejoinAfter && !this.steps.stopping()) {
        this.rejoinAfter = false;
        await this.steps.rejoin();
      }
    } catch (failure) {
      this.steps.failed(failure);
    } finally {
      this.rejoinAfter = false;
      this.running = false;
    }
  }
}
