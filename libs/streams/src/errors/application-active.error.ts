import { StreamsError } from './streams.error';

/**
 * An application reset was refused because the application's consumer group still has members
 * (Kafka's `kafka-streams-application-reset` refuses the same way): resetting offsets under a
 * running instance would be overwritten by its next commit, and deleting its internal topics
 * would break it.
 *
 * What to do: stop every instance of the application (and wait for the group's session timeout
 * if one was killed), then run the reset again. Retriable once the instances are stopped.
 */
export class ApplicationActiveError extends StreamsError.coded('APPLICATION_ACTIVE', true) {
  constructor(
    readonly applicationId: string,
    /** The group's state, as the coordinator reports it (`Stable`, `PreparingRebalance`, ...). */
    readonly groupState: string,
  ) {
    super(
      `application ${applicationId} still has members (group state ${groupState}): stop every instance before resetting it`,
    );
  }
}
