// Fenced handles (R141, R142, X2, X3): a directory or file the tree supplies is opened once, its real path is taken
// from the opened descriptor (not from a path resolved before the open) and fenced, and what lies below it is reached
// relative to that descriptor. Node has no openat: on Linux /proc/self/fd/<fd>/<name> is resolved by the kernel from
// the opened directory, as openat(fd, name) is. Elsewhere the real path is taken by realpath after the open and held
// to the descriptor's identity (dev, ino): a narrower window, not none. Opens never wait (O_NONBLOCK).
import {
  closeSync,
  constants as C,
  existsSync,
  fstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  statSync,
  type Stats,
} from "node:fs";
import { isUtf8 } from "node:buffer";
import { sep } from "node:path";

const PROC = process.platform === "linux" && existsSync("/proc/self/fd");
const NONBLOCK = C.O_NONBLOCK ?? 0;
const DIRECTORY = C.O_DIRECTORY ?? 0;
/** Linux's O_PATH (not in Node's constants): a directory handle that needs no read permission, as a path lookup does not. */
const O_PATH = PROC ? 0o10000000 : 0;
/** Not following a final symlink, where the platform can. */
export const NOFOLLOW: number = C.O_NOFOLLOW ?? 0;

export interface Handle {
  readonly fd: number;
  /** The real path of what was opened, read from the descriptor. */
  readonly real: string;
  /** The path names below it are reached through (/proc/self/fd/<fd> on Linux, else the real path). */
  readonly base: string;
}

/** A failure names the errno; `real` is the opened thing's real path when it was opened but is not of the type wanted. */
export type Opened = { ok: true; handle: Handle } | { ok: false; errno: string; real?: string };

/** Where `name` below an opened directory is reached: relative to the descriptor where the platform can. */
export function below(h: Handle, name: string): string {
  return h.base.endsWith(sep) ? `${h.base}${name}` : `${h.base}${sep}${name}`;
}

/** The real path of an open descriptor: the kernel's where it tells it (a name not UTF-8 there is no usable path: null). */
function realOfFd(fd: number, openedPath: string, info: Stats): string | null {
  if (PROC) {
    const link = readlinkSync(`/proc/self/fd/${fd}`, { encoding: "buffer" });
    return isUtf8(link) ? link.toString("utf8") : null;
  }
  const real = realpathSync.native(openedPath);
  const now = statSync(real);
  return now.dev === info.dev && now.ino === info.ino ? real : null;
}

/**
 * Open `path` without waiting (a FIFO opens at once, and is refused by type), with `flags` added, and read its real
 * path from the descriptor. `want` says which type is kept open; another type closes it and answers "ENOTREG" (a file
 * wanted) or "ENOTDIR" (a directory wanted), with its real path so the caller fences before it says anything; it is
 * never read. A directory is opened as a handle for lookups only (O_PATH on Linux).
 */
export function openFenced(path: string, want: "file" | "dir", flags = 0): Opened {
  let fd: number;
  try {
    fd = openSync(path, (want === "dir" ? DIRECTORY | O_PATH : 0) | C.O_RDONLY | NONBLOCK | flags);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "unknown";
    // open(2) of a socket fails (ENXIO) before any descriptor could be checked: it is no regular file either (R141).
    return code === "ENXIO" && want === "file" ? notRegular(path) : { ok: false, errno: code };
  }
  try {
    const info = fstatSync(fd);
    const real = realOfFd(fd, path, info);
    if (real === null) {
      closeSync(fd);
      return { ok: false, errno: "ENOREAL" };
    }
    if (want === "file" ? !info.isFile() : !info.isDirectory()) {
      closeSync(fd);
      return { ok: false, errno: want === "file" ? "ENOTREG" : "ENOTDIR", real };
    }
    return { ok: true, handle: { fd, real, base: PROC ? `/proc/self/fd/${fd}` : real } };
  } catch (err) {
    closeSync(fd);
    return { ok: false, errno: (err as NodeJS.ErrnoException).code ?? "unknown" };
  }
}

/** A path that could not be opened because of what it is (a socket): "ENOTREG" with its real path, to fence first. */
function notRegular(path: string): Opened {
  try {
    return statSync(path).isFile()
      ? { ok: false, errno: "ENXIO" }
      : { ok: false, errno: "ENOTREG", real: realpathSync.native(path) };
  } catch (err) {
    return { ok: false, errno: (err as NodeJS.ErrnoException).code ?? "unknown" };
  }
}

export function close(h: Handle): void {
  try {
    closeSync(h.fd);
  } catch {
    // already closed: nothing to release
  }
}
