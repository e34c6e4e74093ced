// Owns capturing what a harness reports only through the console (broken skills, parse errors) while one of its
// calls runs, so a driver can hand it to the kit as catalog or call warnings. The console is restored afterwards,
// also when the call throws.

/** Run `fn` with console[method] for each of `methods` captured; `logged` holds one line per captured call. */
export async function capturingLogs(fn, methods = ["warn", "error"]) {
  const logged = [];
  const saved = methods.map((m) => [m, console[m]]);
  const text = (a) => (a instanceof Error ? a.message : typeof a === "string" ? a : (JSON.stringify(a) ?? String(a)));
  const keep = (...args) => void logged.push(args.map(text).join(" "));
  for (const m of methods) console[m] = keep;
  try {
    return { value: await fn(), logged };
  } finally {
    for (const [m, f] of saved) console[m] = f;
  }
}
