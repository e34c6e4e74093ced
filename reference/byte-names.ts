// Names on disk are bytes (R140, X1): what the tool does with one that is not UTF-8. It is never decoded into a
// path (a decoder's U+FFFD names another entry); it is shown, for display only, in R140's escaped form.
import { isUtf8 } from "node:buffer";

/** A name the tool can use as a string: well-formed UTF-8, so its string maps back to exactly these bytes. */
export function usableName(name: Uint8Array): boolean {
  return isUtf8(name);
}

/** Length of the well-formed UTF-8 sequence starting at bytes[i] (Unicode Table 3-7), or 0 when none starts there. */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i] as number;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean =>
    i + k < b.length && (b[i + k] as number) >= lo && (b[i + k] as number) <= hi;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (c === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/** R140's display form: each well-formed UTF-8 sequence as its character, any other byte as \xHH (lowercase), one byte at a time. */
export function escapeName(name: Uint8Array): string {
  let out = "";
  let i = 0;
  while (i < name.length) {
    const n = sequenceLength(name, i);
    if (n === 0) {
      out += `\\x${(name[i] as number).toString(16).padStart(2, "0")}`;
      i++;
    } else {
      out += Buffer.from(name.subarray(i, i + n)).toString("utf8");
      i += n;
    }
  }
  return out;
}
