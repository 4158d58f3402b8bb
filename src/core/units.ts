// Byte units and the number formats every view shares (hovers, diagnostics, reports, the panel, the CLI).

export const KIB = 1024;
export const MIB = 1024 * KIB;
export const GIB = 1024 * MIB;

/** Bytes as GiB with `digits` decimals and the unit: "12.34 GiB". */
export const gib = (b: number, digits = 2) => `${(b / GIB).toFixed(digits)} GiB`;
/** Bytes as a GiB number without the unit (tables whose head carries it): "12.34". */
export const gibNumber = (b: number, digits = 2) => (b / GIB).toFixed(digits);
/** Bytes as MiB with the unit: "2.00 MiB". */
export const mib = (b: number, digits = 2) => `${(b / MIB).toFixed(digits)} MiB`;

/** Integer with thousands separators, independent of the host's locale. */
export const count = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Bytes in the largest unit that keeps the number ≥ 1: "512 B", "40.0 KiB", "2.00 MiB", "12.34 GiB". */
export function bytes(b: number): string {
  const a = Math.abs(b);
  if (a < KIB) return `${Math.round(b)} B`;
  if (a < MIB) return `${(b / KIB).toFixed(1)} KiB`;
  if (a < GIB) return mib(b);
  return gib(b);
}

/** A signed difference in GiB: "+1.25 GiB", "−3.50 GiB", "±0.00 GiB". */
export function deltaGib(d: number): string {
  const s = gibNumber(Math.abs(d));
  if (s === '0.00') return '±0.00 GiB';
  return `${d > 0 ? '+' : '−'}${s} GiB`;
}
