import type { Socket } from 'node:net';

/** What the fix reads of kafkajs' `Connection`. */
export interface DisconnectingConnection {
  socket?: Socket;
  disconnect(): Promise<boolean>;
}

/**
 * Wraps kafkajs 2.2.4's `Connection.prototype.disconnect`, which ends its socket and calls
 * `socket.unref()`. A socket whose connection failed (refused by a dead broker) is destroyed
 * and has no handle: Node's `unref` then waits for a `connect` that never comes, adding a
 * listener each time, and kafkajs disconnects such a connection at every retry that meets it
 * (a broker down for a few seconds: `MaxListenersExceededWarning: 11 connect listeners added
 * to [Socket]`). A destroyed socket holds nothing that keeps the process alive: its `unref` is
 * skipped, everything else is kafkajs' own.
 */
export function installConnectionDisconnect(connectionClass: {
  prototype: DisconnectingConnection;
}): void {
  const original = connectionClass.prototype.disconnect;
  if ((original as { engineFix?: boolean }).engineFix) return;
  const disconnect = function (this: DisconnectingConnection): Promise<boolean> {
    const socket = this.socket;
    if (socket?.destroyed) socket.unref = () => socket;
    return original.call(this);
  };
  connectionClass.prototype.disconnect = Object.assign(disconnect, { engineFix: true });
}
