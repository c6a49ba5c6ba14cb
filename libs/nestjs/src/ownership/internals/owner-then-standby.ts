import { type HostInfo, StateStoreNotAvailableError } from '@nest-streams/streams';
import { decideRoute, decideStandby, type RouteInput } from './route-decision';

/** Where one read of a key runs: here or on another instance, on the active or a standby copy. */
export type ReadTarget =
  | { readonly local: true; readonly standby: boolean }
  | { readonly local: false; readonly host: HostInfo; readonly standby: boolean };

/** What a read answers when its instance could not: the error, to rethrow or fall back from. */
export interface Unreachable {
  readonly unreachable: Error;
}

/** How a key's read falls back. */
export interface FallbackOptions {
  /** A standby copy may answer when the owner cannot (`allowStaleReads`). */
  readonly allowStale: boolean;
  /** The request came for a standby read (the sender found the owner unreachable). */
  readonly standbyRead?: boolean;
}

/**
 * The one rule of every key read (routing interceptor and `InteractiveQueryService`): the
 * owner's active copy answers (here, or forwarded to the owner found in the cluster metadata);
 * when the owner is unreachable (`read` answers {@link Unreachable}) and stale reads are
 * allowed, a standby copy answers: this instance's, else another instance's standby (never
 * the owner again). The same when the metadata names this instance the owner but it holds no
 * active copy yet (`localCopy`: restoring, or a task held back while it moves here). Every
 * target comes from the metadata (see `decideRoute`).
 *
 * @throws StateStoreNotAvailableError (retriable) when no instance is the confirmed owner, the
 *   request was forwarded to an instance that no longer owns the key, or no standby can answer;
 *   the owner's unreachable error when stale reads are not allowed; what `read` throws.
 */
export async function ownerThenStandby<R>(
  input: RouteInput,
  options: FallbackOptions,
  read: (target: ReadTarget) => Promise<R | Unreachable>,
): Promise<R> {
  const decision = decideRoute(input);
  const exclude: HostInfo[] = [];
  if (decision.action === 'local') {
    if (answersHere(input, options, decision)) {
      return answered(await read({ local: true, standby: false }));
    }
    // Named the owner, but no active copy here (restoring, or held back while it moves here):
    // a standby copy answers, as when an owner elsewhere cannot.
    if (input.self) exclude.push(input.self);
  } else if (decision.action === 'unavailable') {
    if (!(options.standbyRead && options.allowStale)) {
      throw new StateStoreNotAvailableError(decision.reason);
    }
  } else {
    const answer = await read({ local: false, host: decision.target, standby: false });
    if (!isUnreachable(answer)) return answer;
    if (!options.allowStale) throw answer.unreachable;
    exclude.push(decision.target);
  }
  const standby = decideStandby(input, exclude);
  if (standby.action === 'unavailable') throw new StateStoreNotAvailableError(standby.reason);
  const target: ReadTarget =
    standby.action === 'local-standby'
      ? { local: true, standby: true }
      : { local: false, host: standby.target, standby: true };
  const answer = await read(target);
  if (!isUnreachable(answer)) return answer;
  throw new StateStoreNotAvailableError(
    `owner and standby unreachable: ${answer.unreachable.message}`,
  );
}

/**
 * Whether the read runs here on this instance's active copy, with no fallback to consider:
 * what {@link ownerThenStandby} reads first and only, decided without waiting for anything (the
 * routing interceptor's fast path for keys it owns).
 */
export function answersHere(
  input: RouteInput,
  options: FallbackOptions,
  decision = decideRoute(input),
): boolean {
  return decision.action === 'local' && !ownerNotActiveHere(input, options);
}

/**
 * Whether this instance is the named owner without an active copy, and a standby may answer
 * instead: stale reads allowed, and the request came here directly (a forwarded one answers
 * 503, and its sender falls back to a standby itself).
 */
function ownerNotActiveHere(input: RouteInput, options: FallbackOptions): boolean {
  return (
    options.allowStale &&
    input.forwardedFrom === undefined &&
    (input.localCopy === 'standby' || input.localCopy === 'none')
  );
}

function isUnreachable(answer: unknown): answer is Unreachable {
  return typeof answer === 'object' && answer !== null && 'unreachable' in answer;
}

function answered<R>(answer: R | Unreachable): R {
  if (isUnreachable(answer)) throw answer.unreachable;
  return answer;
}
