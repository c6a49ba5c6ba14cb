/** A one-line, actionable failure of the local broker tooling (missing Java, jars, a dead broker). */
export class BrokerToolError extends Error {
  constructor(
    message: string,
    /** Extra lines worth showing after the message, such as the tail of the broker's log. */
    readonly details?: string,
  ) {
    super(message);
    this.name = 'BrokerToolError';
  }
}
