/** The links of a client's error that {@link findInErrorChain} follows. */
interface ErrorChainLink {
  readonly errors?: unknown;
  readonly cause?: unknown;
  readonly originalError?: unknown;
}

/**
 * The first error of `error`'s chain that passes `test`, depth first: the error itself, the
 * errors it aggregates (`errors`: kafkajs' `KafkaJSAggregateError`, platformatic's
 * `MultipleErrors`, one per retry), then its cause (`cause`, or kafkajs' `originalError`); at
 * most 8 links deep. `E` is the caller's view of its client's error fields.
 */
export function findInErrorChain<E>(
  error: unknown,
  test: (e: E) => boolean,
  depth = 0,
): E | undefined {
  if (depth > 8 || typeof error !== 'object' || error === null) return undefined;
  if (test(error as E)) return error as E;
  const link = error as ErrorChainLink;
  for (const inner of Array.isArray(link.errors) ? (link.errors as unknown[]) : []) {
    const found = findInErrorChain(inner, test, depth + 1);
    if (found) return found;
  }
  const cause = link.cause ?? link.originalError;
  return cause !== error ? findInErrorChain(cause, test, depth + 1) : undefined;
}
