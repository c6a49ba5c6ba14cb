/**
 * Encodes values for instance-to-instance queries as JSON-safe data (and back): plain JSON
 * plus tagged `Buffer`, `bigint`, `undefined` and `Date`, so keys and values read from a store
 * travel exactly. Class instances arrive as plain objects with their own enumerable fields.
 */
export type WireValue =
  null | boolean | number | string | WireValue[] | { readonly [key: string]: WireValue };

const TAG = '$nsw';

/**
 * Encodes a value for the query transport.
 *
 * @throws TypeError for a function or symbol (nothing a store returns): a bug in the caller.
 */
export function toWire(value: unknown): WireValue {
  if (value === undefined) return { [TAG]: 'undefined' };
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') {
    return Number.isFinite(value) ? value : { [TAG]: 'number', value: String(value) };
  }
  if (typeof value === 'bigint') return { [TAG]: 'bigint', value: value.toString() };
  if (Buffer.isBuffer(value)) return { [TAG]: 'buffer', value: value.toString('base64') };
  if (value instanceof Uint8Array) {
    return { [TAG]: 'buffer', value: Buffer.from(value).toString('base64') };
  }
  if (value instanceof Date) return { [TAG]: 'date', value: value.toISOString() };
  if (Array.isArray(value)) return value.map(toWire);
  if (typeof value === 'object') {
    const result: Record<string, WireValue> = {};
    for (const [k, v] of Object.entries(value)) result[k] = toWire(v);
    if (TAG in result) return { [TAG]: 'object', value: result };
    return result;
  }
  throw new TypeError(`cannot send a ${typeof value} to another instance`);
}

/** Decodes what {@link toWire} encoded (unknown tags pass through as plain objects). */
export function fromWire(wire: WireValue): unknown {
  if (wire === null || typeof wire !== 'object') return wire;
  if (Array.isArray(wire)) return wire.map(fromWire);
  const tag = wire[TAG];
  if (typeof tag === 'string') {
    const value = wire.value;
    switch (tag) {
      case 'undefined':
        return undefined;
      case 'number':
        return Number(value);
      case 'bigint':
        return BigInt(String(value));
      case 'buffer':
        return Buffer.from(String(value), 'base64');
      case 'date':
        return new Date(String(value));
      case 'object':
        return fromWireObject(value as { readonly [key: string]: WireValue });
    }
  }
  return fromWireObject(wire);
}

function fromWireObject(wire: { readonly [key: string]: WireValue }): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(wire)) result[k] = fromWire(v);
  return result;
}
