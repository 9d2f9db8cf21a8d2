// Uniqueness within one import in memory bounded by the number of distinct values, not their size: each value
// is kept as a 53-bit hash (cyrb53) in an open-addressing table of doubles, 16 bytes a value at most. Two
// different values share a hash with a probability of about n²/2^54 (1 in 18 000 for a million rows): such a
// pair would be reported as a duplicate, which the error message does not hide ("the same value as an earlier row").

/** A 53-bit hash of a text (cyrb53, public domain): two 32-bit lanes, mixed. */
export function hashText(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A set of 53-bit hashes. */
export class HashSet {
  private table = new Float64Array(1024);
  private size = 0;

  /** Adds a hash; false when it was already there. */
  add(hash: number): boolean {
    if (hash === 0) hash = 1; // 0 marks an empty slot
    if ((this.size + 1) * 2 > this.table.length) this.grow();
    if (!insert(this.table, hash)) return false;
    this.size++;
    return true;
  }

  private grow(): void {
    const old = this.table;
    this.table = new Float64Array(old.length * 2);
    for (const hash of old) if (hash !== 0) insert(this.table, hash);
  }
}

function insert(table: Float64Array, hash: number): boolean {
  const mask = table.length - 1;
  let slot = (hash % 4294967296) & mask;
  for (;;) {
    const held = table[slot]!;
    if (held === 0) {
      table[slot] = hash;
      return true;
    }
    if (held === hash) return false;
    slot = (slot + 1) & mask;
  }
}

/** A map of 53-bit hashes to row indexes (the first row that held each hash), laid out as HashSet is. */
export class HashIndex {
  private hashes = new Float64Array(1024);
  private rows = new Float64Array(1024);
  private size = 0;

  /** Records `row` under `hash`; the row recorded before when the hash was already there (nothing changes then). */
  firstOrAdd(hash: number, row: number): number | undefined {
    if (hash === 0) hash = 1;
    if ((this.size + 1) * 2 > this.hashes.length) this.grow();
    const slot = findSlot(this.hashes, hash);
    if (this.hashes[slot] === hash) return this.rows[slot];
    this.hashes[slot] = hash;
    this.rows[slot] = row;
    this.size++;
    return undefined;
  }

  private grow(): void {
    const [hashes, rows] = [this.hashes, this.rows];
    this.hashes = new Float64Array(hashes.length * 2);
    this.rows = new Float64Array(hashes.length * 2);
    hashes.forEach((hash, i) => {
      if (hash === 0) return;
      const slot = findSlot(this.hashes, hash);
      this.hashes[slot] = hash;
      this.rows[slot] = rows[i]!;
    });
  }
}

/** The slot holding `hash`, or the empty slot where it belongs. */
function findSlot(table: Float64Array, hash: number): number {
  const mask = table.length - 1;
  let slot = (hash % 4294967296) & mask;
  while (table[slot] !== 0 && table[slot] !== hash) slot = (slot + 1) & mask;
  return slot;
}
