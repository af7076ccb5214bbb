import type { Socket } from 'node:net';
import type { OutputLimits } from '../../config.js';


/** A connection whose response is not all taken by its client yet. */
interface Stalled {
  /** Bytes still in the socket's buffer when last looked at. */
  pending: number;
  /** When its client last took some (real time). */
  progressAt: number;
}

/**
 * Bounds what clients that do not read can make the server hold. A response is written whole into
 * its socket, and what the client has not taken stays in the process's memory (a 5.5 MB snapshot
 * asked for by 100 clients that never read held 1.1 GB). Once a response is finished, the bytes
 * still buffered are watched: a connection whose client takes nothing for `writeTimeoutMs` is
 * closed, and while the bytes buffered over every connection exceed `budgetBytes`, the connections
 * idle longest are closed first. A client reading at any pace keeps its connection.
 */
export class OutputGuard {
  private readonly stalled = new Map<Socket, Stalled>();
  private total = 0;
  private timer: NodeJS.Timeout | undefined;

  private readonly writeTimeoutMs: number;
  private readonly budgetBytes: number;

  constructor({ writeTimeoutMs, budgetBytes }: OutputLimits) {
    this.writeTimeoutMs = writeTimeoutMs;
    this.budgetBytes = budgetBytes;
  }

  /** Bytes buffered for clients that have not taken them, over every connection. */
  get pendingBytes(): number {
    return this.total;
  }

  /** The socket's response just finished: watches what is still buffered for it, if anything. */
  watch(socket: Socket): void {
    if (socket.destroyed) return;
    const known = this.stalled.get(socket);
    if (known) {
      this.update(socket, known);
    } else if (socket.writableLength > 0) {
      this.stalled.set(socket, { pending: socket.writableLength, progressAt: Date.now() });
      this.total += socket.writableLength;
      const forget = () => this.forget(socket);
      socket.once('drain', forget);
      socket.once('close', forget);
    }
    this.enforceBudget();
    this.timer ??= setInterval(() => this.sweep(), Math.max(10, Math.min(1000, Math.floor(this.writeTimeoutMs / 4)))).unref();
  }

  private update(socket: Socket, entry: Stalled): void {
    const now = socket.writableLength;
    if (now !== entry.pending) {
      if (now < entry.pending) entry.progressAt = Date.now();
      this.total += now - entry.pending;
      entry.pending = now;
    }
    if (now === 0) this.forget(socket);
  }

  private forget(socket: Socket): void {
    const entry = this.stalled.get(socket);
    if (!entry) return;
    this.total -= entry.pending;
    this.stalled.delete(socket);
    if (this.stalled.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private drop(socket: Socket): void {
    this.forget(socket);
    socket.destroy();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [socket, entry] of this.stalled) {
      this.update(socket, entry);
      if (this.stalled.has(socket) && now - entry.progressAt >= this.writeTimeoutMs) this.drop(socket);
    }
  }

  private enforceBudget(): void {
    while (this.total > this.budgetBytes && this.stalled.size > 0) {
      let idlest: [Socket, Stalled] | undefined;
      for (const item of this.stalled) if (!idlest || item[1].progressAt < idlest[1].progressAt) idlest = item;
      this.drop((idlest as [Socket, Stalled])[0]);
    }
  }
}
