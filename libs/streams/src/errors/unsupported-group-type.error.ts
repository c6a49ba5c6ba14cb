import { StreamsError } from './streams.error';

/**
 * An application reset was refused because the application's group is not a classic consumer
 * group (a KIP-1071 `streams` group): `nest-streams reset` cannot tell whether such a group has
 * members, so it changes nothing.
 *
 * What to do: stop every instance and reset with Kafka's own `kafka-streams-application-reset`
 * (4.1 and newer know streams groups), or run the application with `groupProtocol: 'classic'`.
 * Not retriable.
 */
export class UnsupportedGroupTypeError extends StreamsError.coded('UNSUPPORTED_GROUP_TYPE', false) {
  constructor(
    readonly applicationId: string,
    /** The protocol type the cluster lists the group under. */
    readonly protocolType: string,
  ) {
    super(
      `application ${applicationId}'s group is a ${protocolType} group: nest-streams reset resets classic groups only (use Kafka's kafka-streams-application-reset)`,
    );
  }
}
