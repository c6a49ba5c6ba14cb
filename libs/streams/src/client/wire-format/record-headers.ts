// Record headers as fetched records carry them, the same for every client adapter: the shape
// kafkajs hands its consumers (and the engine's kafkajs record decoder keeps), so processors
// see the same headers whichever client fetched the record.

/**
 * A fetched record's headers by name (UTF-8): a header's value bytes, `null` for a header with
 * no value, and for a name the record repeats, every value in record order.
 */
export type RecordHeaders = Record<string, Buffer | null | (Buffer | null)[]>;

/**
 * Adds one decoded header to `headers`: the value for a new name; the values so far and this
 * one as an array for a repeated name. A header named like a property of `Object.prototype`
 * (`toString`, `__proto__`) is an own property holding its value.
 */
export function addRecordHeader(headers: RecordHeaders, name: string, value: Buffer | null): void {
  const current = Object.prototype.hasOwnProperty.call(headers, name) ? headers[name] : undefined;
  const next =
    current === undefined ? value : Array.isArray(current) ? [...current, value] : [current, value];
  if (name === '__proto__') {
    // Defined, not assigned: assigning `__proto__` would set the object's prototype.
    Object.defineProperty(headers, name, {
      value: next,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    headers[name] = next;
  }
}
