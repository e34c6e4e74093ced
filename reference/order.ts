// The one ordering the contract uses for names and resource paths (D10, §5.2): by Unicode code point.
// JS string comparison orders UTF-16 units, which differs for characters above U+FFFF vs U+E000–U+FFFF.
export function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    if (sx !== sy) return sx ? 1 : -1; // a surrogate pair encodes a code point above every BMP unit
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}
