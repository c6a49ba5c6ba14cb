import { TopologyError } from '../errors/topology.error';

/** Characters Kafka allows in a topic (and therefore in a processor or store) name. */
const LEGAL_NAME = /^[a-zA-Z0-9._-]+$/;
const MAX_NAME_LENGTH = 249;

/**
 * Checks a user-given processor, store or repartition name: 1 to 249 characters of
 * `[a-zA-Z0-9._-]`, as Kafka requires of names that may end up in topic names.
 *
 * @throws TopologyError for an empty, too long or illegal name: choose another name.
 */
export function validateName(name: string, what = 'name'): string {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH || !LEGAL_NAME.test(name)) {
    throw new TopologyError(
      `${what} '${name}' is illegal: use 1 to ${MAX_NAME_LENGTH} characters of [a-zA-Z0-9._-]`,
    );
  }
  return name;
}

/**
 * A name for the processor an operation adds, overriding the generated one
 * (`KSTREAM-FILTER-0000000003`), as Kafka Streams' `Named`. Naming processors keeps a
 * topology's node names stable when operations are added or removed elsewhere.
 *
 * @example stream.filter((k, v) => v.amount > 0, Named.as('positive-amounts'))
 */
export class Named {
  private constructor(readonly name: string) {}

  /**
   * @throws TopologyError for an illegal name (see `validateName`): choose another name.
   */
  static as(name: string): Named {
    return new Named(validateName(name, 'processor name'));
  }
}
