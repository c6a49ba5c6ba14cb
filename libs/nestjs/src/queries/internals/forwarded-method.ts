/**
 * `method` of the store `store()` returns at each call, as a function of its own with the
 * store's own signature (overloads and type parameters kept): what a store facade exposes for
 * each read, so that it follows the store as it moves. Throws what `store()` or the method
 * throws.
 */
export function forwardedMethod<S, M extends keyof S>(store: () => S, method: M): S[M] {
  const forward = (...args: unknown[]): unknown => {
    const current = store();
    return (current[method] as (...args: unknown[]) => unknown).apply(current, args);
  };
  return forward as S[M];
}
