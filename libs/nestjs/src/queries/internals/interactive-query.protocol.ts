import type { StateQueryRequest } from '@nest-streams/streams';
import { QUERY_MESSAGE_PATTERN } from '../../streams.constants';
import { fromWire, toWire, type WireValue } from './wire-codec';

/**
 * What one instance asks another: the engine's interactive query v2 request
 * (`StateQueryRequest`: store, query, partitions, position bound, active-only), encoded with
 * the wire codec, plus the endpoint it is meant for.
 */
export interface RemoteQueryRequest {
  readonly version: 1;
  /** The endpoint the sender meant: an instance answering for another endpoint refuses. */
  readonly target: string;
  /** The sender's endpoint (for logs). */
  readonly from: string;
  /** An interactive query v2 request (`StateQueryRequest`, encoded). */
  readonly request?: WireValue;
  /**
   * Or the instance's report for the cluster page (client state, tasks, lags, restores, live
   * figures): answered with an `InstanceReport`, encoded.
   */
  readonly instanceReport?: true;
}

/** A decoded request: a v2 query, or a report request. */
export type DecodedRemoteQuery =
  | { readonly target: string; readonly request: StateQueryRequest<unknown> }
  | { readonly target: string; readonly instanceReport: true };

/** A failure as data: an error code, whether to retry, and its message. */
export interface QueryFailure {
  readonly code: string;
  readonly retriable: boolean;
  readonly message: string;
}

/**
 * The answer: the engine's `StateQueryResult` (per-partition results, failures as data,
 * position) encoded with the wire codec, or a failure of the whole request.
 */
export type RemoteQueryResponse =
  | { readonly ok: true; readonly servedBy: string; readonly result: WireValue }
  | { readonly ok: false; readonly servedBy: string; readonly failure: QueryFailure };

/** The message pattern an instance with `endpoint` answers. */
export function queryPattern(endpoint: string): string {
  return `${QUERY_MESSAGE_PATTERN}:${endpoint}`;
}

const QUERY_TYPES = new Set(['key', 'range', 'window-key', 'window-range', 'session']);

/** Encodes a request for the wire. */
export function encodeStateQueryRequest(request: StateQueryRequest<unknown>): WireValue {
  return toWire(request);
}

/**
 * Decodes a request from the wire.
 *
 * @returns undefined when `data` is not a well-formed request.
 */
export function decodeRemoteQueryRequest(data: unknown): DecodedRemoteQuery | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const message = data as Partial<RemoteQueryRequest>;
  if (message.version !== 1 || typeof message.target !== 'string') return undefined;
  if (message.instanceReport === true) return { target: message.target, instanceReport: true };
  const request = fromWire(message.request ?? null) as Partial<StateQueryRequest<unknown>> | null;
  if (!request || typeof request.storeName !== 'string') return undefined;
  const query = request.query as { type?: unknown } | undefined;
  if (!query || !QUERY_TYPES.has(String(query.type))) return undefined;
  if (
    request.partitions !== undefined &&
    (!Array.isArray(request.partitions) || !request.partitions.every(Number.isInteger))
  ) {
    return undefined;
  }
  return { target: message.target, request: request as StateQueryRequest<unknown> };
}
