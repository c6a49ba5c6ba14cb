/** What a test reads of a `/health/ready` answer: its status and body (JSON or text). */
export interface HealthAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * True when `/health/ready` says ready *and* the client is RUNNING: every store restored and
 * no rebalance under way. Readiness alone also holds during a rebalance (a pod that answers
 * or says 503 stays in the Service); tests that need a stable group wait for this.
 */
export function readyAndRunning(answer: HealthAnswer): boolean {
  if (answer.status !== 200) return false;
  let body = answer.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body) as unknown;
    } catch {
      return false;
    }
  }
  const details = (body as { details?: { streams?: { state?: string } } } | null)?.details;
  return details?.streams?.state === 'RUNNING';
}
