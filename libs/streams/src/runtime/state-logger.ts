/** Where the state runtime reports what it decided (wipes, full restores, checkpoints). */
export interface StateLogger {
  info(message: string): void;
  warn(message: string): void;
}

/** Logs to the console: warnings to stderr, info dropped unless `NEST_STREAMS_DEBUG` is set. */
export const consoleStateLogger: StateLogger = {
  info: (message) => {
    if (process.env.NEST_STREAMS_DEBUG) console.info(message);
  },
  warn: (message) => console.warn(message),
};
