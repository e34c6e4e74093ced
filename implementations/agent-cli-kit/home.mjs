// A fresh, empty world per CLI run: a temp dir holding HOME, the XDG dirs under it, and a project dir the CLI starts
// in, so nothing a user or an earlier run left behind (config, credentials, caches, skills) reaches the harness.
// `link` places a kit skill root where the harness looks for skills, as a symlink to the root (the root itself is
// untouched; the driver maps the harness's paths back through it, README says where); `linkRoots` places them all.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export function freshWorld(prefix) {
  const base = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const home = join(base, "home");
  const project = join(base, "project");
  for (const d of [
    home,
    project,
    join(home, ".config"),
    join(home, ".cache"),
    join(home, ".local", "share"),
    join(home, ".local", "state"),
  ])
    mkdirSync(d, { recursive: true });
  return {
    base,
    home,
    project,
    /** The env every run starts from: no inherited variables but PATH (keys, proxies, tokens never leak in). */
    env: {
      HOME: home,
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_CACHE_HOME: join(home, ".cache"),
      XDG_DATA_HOME: join(home, ".local", "share"),
      XDG_STATE_HOME: join(home, ".local", "state"),
      TMPDIR: tmpdir(),
      LANG: "C.UTF-8",
      TERM: "dumb",
      NO_COLOR: "1",
      CI: "1",
    },
    link(target, at) {
      mkdirSync(dirname(at), { recursive: true });
      symlinkSync(target, at);
      return at;
    },
    /**
     * The case's skill roots, in order, at the harness's skill locations (`places`, in the order its README gives):
     * the links, for unlink(). A case with more roots than the harness has locations cannot be given to it.
     */
    linkRoots(harness, roots, places) {
      if (roots.length > places.length)
        throw new Error(`${harness} has ${places.length} skill locations; the case configures ${roots.length} roots`);
      return roots.map((root, i) => ({ root, at: this.link(root, places[i]) }));
    },
    remove() {
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** Map a path the harness reported under one of its linked locations back to the kit root it links to. */
export function unlink(path, links) {
  for (const { at, root } of links) {
    if (path === at) return root;
    if (path.startsWith(at + "/")) return root + path.slice(at.length);
  }
  return path;
}
