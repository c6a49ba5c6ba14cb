import {
  InvalidStateStorePartitionError,
  InvalidWindowError,
  SerializationError,
  StateStoreMigratedError,
  StateStoreNotAvailableError,
  StreamsNotStartedError,
  UnknownStateStoreError,
  UnsupportedStoreOperationError,
} from '@nest-streams/streams';
import { RemoteQueryError } from '../errors/remote-query.error';
import { OwnerUnreachableError } from '../routing/owner-unreachable.error';
import { httpStatusOf } from './streams-exception.filter';

describe('httpStatusOf', () => {
  it('maps retriable errors to 503, bad input to 400, the rest to 5xx', () => {
    expect(httpStatusOf(new StreamsNotStartedError('x'))).toBe(503);
    expect(httpStatusOf(new StateStoreNotAvailableError('x'))).toBe(503);
    expect(httpStatusOf(new StateStoreMigratedError('x'))).toBe(503);
    expect(httpStatusOf(new OwnerUnreachableError('h:1', 'x'))).toBe(503);
    expect(httpStatusOf(new RemoteQueryError('QUERY_TIMEOUT', true, 'x', 'h:1'))).toBe(503);
    expect(httpStatusOf(new SerializationError('x'))).toBe(400);
    expect(httpStatusOf(new InvalidWindowError('x'))).toBe(400);
    expect(httpStatusOf(new InvalidStateStorePartitionError('x'))).toBe(400);
    expect(httpStatusOf(new UnsupportedStoreOperationError('s', 'op', 'x'))).toBe(501);
    expect(httpStatusOf(new UnknownStateStoreError('x'))).toBe(500);
    expect(httpStatusOf(new RemoteQueryError('STORE_EXCEPTION', false, 'x', 'h:1'))).toBe(500);
  });
});
