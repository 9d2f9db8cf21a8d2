/** How long one check of a key and origin answers for every stream that presents them. */
const CHECK_TTL_MS = 1_000;

/**
 * A caller's re-check, shared: a theme change wakes every stream of the account at once, and each re-checked
 * its key (a SHA-256 and a read) on its own, so 1 000 streams meant 1 000 reads in one turn. Streams presenting
 * the same key from the same origin (one `name`) now share one check made within the last CHECK_TTL_MS; a key
 * rolled or an origin removed still ends them by the next wake after that.
 */
export class SharedAcceptanceChecks {
  private readonly recent = new Map<string, { at: number; accepted: Promise<boolean> }>();

  stillAccepted(name: string, check: () => Promise<boolean>): Promise<boolean> {
    const now = Date.now();
    const found = this.recent.get(name);
    if (found && now - found.at < CHECK_TTL_MS) return found.accepted;
    // Entries of keys no longer presented go as soon as any check finds them stale: the map stays as small as the open streams' keys.
    for (const [other, entry] of this.recent) if (now - entry.at >= CHECK_TTL_MS) this.recent.delete(other);
    const accepted = check();
    this.recent.set(name, { at: now, accepted });
    accepted.catch(() => this.recent.delete(name));
    return accepted;
  }
}
