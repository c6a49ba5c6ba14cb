/**
 * What drives a punctuator: stream time (advanced by record timestamps, so it only moves when
 * records arrive) or wall-clock time (the system clock, checked by the processing loop).
 */
export enum PunctuationType {
  STREAM_TIME = 'STREAM_TIME',
  WALL_CLOCK_TIME = 'WALL_CLOCK_TIME',
}

/** Called with the time (stream or wall clock, per its type) at which it fires. */
export type Punctuator = (timestamp: number) => void;

/** Cancels a scheduled punctuation. */
export interface Cancellable {
  cancel(): void;
}
