// An open-addressing hash table from (node, hash1, hash2) to a node id, sized once for a fixed number of entries
// (linear probing, backward-shift deletion: no tombstones, so its size stays bounded by the pool).

/** The home slot: hash1 is already a well-mixed 32-bit hash of the key, so a multiply-xor with the node suffices. */
function home(p: number, a: number, b: number, mask: number): number {
  return (a ^ Math.imul(p ^ (b >>> 11), 0x9e3779b1)) & mask;
}

export class NodeTable {
  private readonly mask: number;
  /** Four ints per slot (parent + 1, hash1, hash2, value), so one probe reads one cache line; parent + 1 = 0 marks an empty slot. */
  private readonly t: Int32Array;

  constructor(maxEntries: number) {
    let cap = 16;
    while (cap < 2 * maxEntries + 2) cap *= 2;
    this.mask = cap - 1;
    this.t = new Int32Array(4 * cap);
  }

  /** Bytes held by the table. */
  get bytes(): number {
    return this.t.byteLength;
  }

  get(p: number, a: number, b: number): number {
    const mask = this.mask;
    const t = this.t;
    const key = p + 1;
    for (let i = home(p, a, b, mask); ; i = (i + 1) & mask) {
      const x = t[4 * i]!;
      if (x === 0) return -1;
      if (x === key && t[4 * i + 1] === a && t[4 * i + 2] === b) return t[4 * i + 3]!;
    }
  }

  /** Sets the value; returns false (and changes nothing) when the key is already present. */
  set(p: number, a: number, b: number, v: number): boolean {
    const mask = this.mask;
    const t = this.t;
    const key = p + 1;
    for (let i = home(p, a, b, mask); ; i = (i + 1) & mask) {
      const x = t[4 * i]!;
      if (x === 0) {
        t[4 * i] = key;
        t[4 * i + 1] = a;
        t[4 * i + 2] = b;
        t[4 * i + 3] = v;
        return true;
      }
      if (x === key && t[4 * i + 1] === a && t[4 * i + 2] === b) return false;
    }
  }

  /** Replaces the value of a present key. */
  replace(p: number, a: number, b: number, v: number): void {
    const mask = this.mask;
    const t = this.t;
    const key = p + 1;
    for (let i = home(p, a, b, mask); ; i = (i + 1) & mask) {
      const x = t[4 * i]!;
      if (x === 0) return;
      if (x === key && t[4 * i + 1] === a && t[4 * i + 2] === b) {
        t[4 * i + 3] = v;
        return;
      }
    }
  }

  delete(p: number, a: number, b: number): void {
    const mask = this.mask;
    const t = this.t;
    const key = p + 1;
    let i = home(p, a, b, mask);
    for (; ; i = (i + 1) & mask) {
      const x = t[4 * i]!;
      if (x === 0) return;
      if (x === key && t[4 * i + 1] === a && t[4 * i + 2] === b) break;
    }
    // Backward-shift: move later entries of the probe run into the hole when their home allows it.
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const x = t[4 * j]!;
      if (x === 0) break;
      const k = home(x - 1, t[4 * j + 1]!, t[4 * j + 2]!, mask);
      const between = i <= j ? k > i && k <= j : k > i || k <= j;
      if (between) continue;
      t[4 * i] = x;
      t[4 * i + 1] = t[4 * j + 1]!;
      t[4 * i + 2] = t[4 * j + 2]!;
      t[4 * i + 3] = t[4 * j + 3]!;
      i = j;
    }
    t[4 * i] = 0;
  }
}
