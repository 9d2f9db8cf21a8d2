import { ServiceError } from '../errors';

/**
 * How many exports each account streams at once in this process (DESIGN.md "Limits"). A stream holds up to
 * ~16 MiB buffered for its client (two pieces ahead and the socket's) for as long as the client reads, and a
 * client that stops reading is only dropped after two minutes (STALLED_READER_MS): without a bound, one
 * account's clients could pin any amount of the server's memory. Past it an export is refused with 429
 * before anything is read; its slot comes back when the stream ends, however it ends.
 */
export class ExportSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly perAccount: number) {}

  /** Takes one of the account's slots; the function returned gives it back (once, however often it is called). */
  take(accountId: string): () => void {
    const held = this.held.get(accountId) ?? 0;
    if (held >= this.perAccount) {
      throw new ServiceError('rate_limited', `this account already streams ${held} exports on this server; retry after 1 s`, undefined, 1);
    }
    this.held.set(accountId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.held.get(accountId)! - 1;
      if (left === 0) this.held.delete(accountId);
      else this.held.set(accountId, left);
    };
  }
}
