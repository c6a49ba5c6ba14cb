import { StreamsError } from '@nest-streams/streams';

/**
 * Two `@StateStore` declarations share one name (store names are unique per application:
 * they name directories and changelog topics). Thrown at start-up. What to do: rename one of
 * the two declarations named in the message; never retriable.
 */
export class DuplicateStateStoreError extends StreamsError.coded('DUPLICATE_STATE_STORE', false) {
  constructor(
    readonly storeName: string,
    readonly declaredBy: readonly string[],
  ) {
    super(
      `state store '${storeName}' is declared more than once (by ${declaredBy.join(' and ')}): give each @StateStore its own name`,
    );
  }
}
