// A seeded pseudo-random generator for the synthetic workloads: a Weyl sequence (step 0x9e3779b9) through the
// murmur3 32-bit finalizer, a SplitMix-style generator; deterministic for a seed and fast enough for 10^6 requests.

export class Prng {
  private s: number;

  constructor(seed: number) {
    this.s = (seed ^ 0x9e3779b9) | 0;
  }

  /** Uniform in [0, 2^32). */
  next(): number {
    this.s = (this.s + 0x9e3779b9) | 0;
    let z = this.s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** Uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  /** Exponential with the given mean (Poisson arrivals). */
  exp(mean: number): number {
    return -Math.log(1 - this.float()) * mean;
  }
}
