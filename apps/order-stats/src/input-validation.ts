import { BadRequestException } from '@nestjs/common';

/** Longest user id accepted in a path or query (characters). Longer is a 400, never a 500. */
export const MAX_KEY_LENGTH = 256;

/**
 * A user id from a path or query: present, given once (a repeated `?from=a&from=b` parses as
 * an array), not empty, not over-long.
 */
export function requireKey(name: string, value: unknown): string {
  if (value === undefined || value === '') throw new BadRequestException(`'${name}' is required`);
  if (typeof value !== 'string') {
    throw new BadRequestException(`'${name}' must be given once, as a single value`);
  }
  if (value.length > MAX_KEY_LENGTH) {
    throw new BadRequestException(`'${name}' is longer than ${MAX_KEY_LENGTH} characters`);
  }
  return value;
}

/** An epoch-millisecond query parameter (given once), or the fallback when absent. */
export function epochMs(name: string, value: unknown, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string') {
    throw new BadRequestException(`'${name}' must be given once, as a single value`);
  }
  if (!/^\d{1,15}$/.test(value)) {
    throw new BadRequestException(
      `'${name}' must be epoch milliseconds (digits only), got '${value.slice(0, 40)}'`,
    );
  }
  return Number(value);
}

/** Orders two bounds the way the store orders keys (UTF-8 bytes); `from` after `to` is a 400. */
export function requireOrdered(from: string, to: string): void {
  if (Buffer.compare(Buffer.from(from), Buffer.from(to)) > 0) {
    throw new BadRequestException(
      `'from' (${from.slice(0, 40)}) must not be after 'to' (${to.slice(0, 40)})`,
    );
  }
}
