import type { FailedRecord } from '../exception-handlers';

/**
 * One record as the consumer fetched it, before deserialization: the physical topic name
 * (internal topics carry the application id prefix), partition, offset, timestamp (epoch ms),
 * raw key, value and headers. The same fields a deserialization exception handler gets.
 */
export type ConsumedRecord = FailedRecord;
