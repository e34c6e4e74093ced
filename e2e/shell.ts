// A small, conservative parser of bash command lines for the permission policy (SK4): it finds every simple command
// a line could run — across ; & && || | and newlines, if/then/else/fi, while/until/for … do … done, { … }, ( … )
// subshells, $( … ), backticks, <( … ), heredocs — and reports each as its words, marking the words whose value is
// only known at run time ($VAR, ${…}, globs, brace expansion). What it does not understand (case, function
// definitions, unbalanced quotes or parentheses, heredocs that expand commands) is a parse failure, and the policy
// denies a line it cannot parse. Why not a library: sh-syntax (the maintained WASM build of mvdan/sh) returns only
// positions for command nodes in its JS AST, mvdan-sh is deprecated in its favour, bash-parser is unmaintained since
// 2017, and shell-quote is a tokenizer with no compound commands or nesting.
// Owns: parseShell, ShellWord, ShellCommand.

export interface ShellWord {
  /** The word after quote removal; run-time parts ($x, ${x}, $((…))) kept as written. */
  text: string;
  /** Part of the value is only known at run time (parameter or arithmetic expansion, a glob, a brace expansion). */
  dynamic: boolean;
}

export interface ShellCommand {
  words: ShellWord[];
}

export type ShellParse = { ok: true; commands: ShellCommand[] } | { ok: false; reason: string };

class Unparseable extends Error {}

const META = new Set([";", "&", "|", "(", ")", "<", ">", "\n"]);
/** Words that open, continue or close a compound command; dropped from the front of a simple command. */
const RESERVED = new Set(["if", "then", "elif", "else", "fi", "do", "done", "while", "until", "!", "{", "}"]);
const REFUSED = new Set(["case", "esac", "function", "select", "coproc"]);

export function parseShell(src: string): ShellParse {
  try {
    const p = new Parser(src);
    p.list(undefined);
    return { ok: true, commands: p.commands };
  } catch (err) {
    if (err instanceof Unparseable) return { ok: false, reason: err.message };
    throw err;
  }
}

class Parser {
  i = 0;
  readonly commands: ShellCommand[] = [];
  private heredocs: { delim: string; expand: boolean; strip: boolean }[] = [];
  /** Inside `…`, a backtick closes the substitution instead of opening one. */
  private backticks = 0;
  constructor(private readonly s: string) {}

  private fail(why: string): never {
    throw new Unparseable(`${why} (at character ${this.i})`);
  }

  /** Parses commands until `end` (a closing ")" or "`") or the end of input; returns with i past the terminator. */
  list(end: ")" | "`" | undefined): void {
    let words: ShellWord[] = [];
    let depth = 0; // open ( … ) subshells and { … } groups are just separators, but must balance
    const flush = () => {
      this.finish(words);
      words = [];
    };
    for (;;) {
      this.skipBlanks();
      if (this.i >= this.s.length) {
        if (end) this.fail(`missing closing ${end}`);
        if (depth) this.fail("unbalanced parenthesis");
        flush();
        return;
      }
      const c = this.s[this.i]!;
      if (end === "`" && c === "`") {
        this.i++;
        flush();
        return;
      }
      if (c === ")") {
        this.i++;
        flush();
        if (depth > 0) {
          depth--;
          continue;
        }
        if (end === ")") return;
        this.fail("unexpected )");
      }
      if (c === "#") {
        while (this.i < this.s.length && this.s[this.i] !== "\n") this.i++;
        continue;
      }
      if (c === "\n") {
        this.i++;
        flush();
        this.readHeredocs();
        continue;
      }
      if (this.redirection()) continue;
      if (c === ";" || c === "&" || c === "|") {
        if (this.s.startsWith(";;", this.i)) this.fail("case clauses are not supported");
        this.i +=
          this.s.startsWith("&&", this.i) || this.s.startsWith("||", this.i) || this.s.startsWith("|&", this.i) ? 2 : 1;
        flush();
        continue;
      }
      if (c === "(") {
        if (words.some((w) => w.dynamic || !RESERVED.has(w.text))) this.fail("( after a word (a function definition?)");
        if (this.s.startsWith("((", this.i)) {
          this.skipArithmetic(2);
          continue;
        }
        this.i++;
        depth++;
        continue;
      }
      words.push(this.word());
    }
  }

  /** A simple command is complete: drop compound-command keywords in front of it, refuse what we do not model. */
  private finish(words: ShellWord[]): void {
    let w = words;
    while (w.length && !w[0]!.dynamic && RESERVED.has(w[0]!.text)) w = w.slice(1);
    if (!w.length) return;
    const first = w[0]!;
    if (!first.dynamic && REFUSED.has(first.text)) this.fail(`${first.text} is not supported`);
    if (!first.dynamic && first.text === "for") return; // a loop header: its words run nothing (substitutions already collected)
    this.commands.push({ words: w });
  }

  private skipBlanks(): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === " " || c === "\t" || c === "\r") this.i++;
      else if (c === "\\" && this.s[this.i + 1] === "\n") this.i += 2;
      else return;
    }
  }

  /** `[n]>`, `>>`, `<`, `&>`, `>&n`, `<<<`, `<<` …: consumes the operator and its target. */
  private redirection(): boolean {
    if ((this.s[this.i] === "<" || this.s[this.i] === ">") && this.s[this.i + 1] === "(") return false; // <( … ) is a word
    const m = /^(\d*)(<<<|<<-|<<|&>>|&>|>>|>\||<>|>&|<&|>|<)/.exec(this.s.slice(this.i, this.i + 8));
    if (!m) return false;
    if (m[1] && /\d/.test(m[1]) && this.i > 0 && !/[\s;&|(]/.test(this.s[this.i - 1] ?? " ")) return false;
    this.i += m[0].length;
    this.skipBlanks();
    if (m[2] === "<<" || m[2] === "<<-") {
      const start = this.i;
      const target = this.word();
      const raw = this.s.slice(start, this.i);
      this.heredocs.push({ delim: target.text, expand: !/['"\\]/.test(raw), strip: m[2] === "<<-" });
      return true;
    }
    if ((m[2] === ">&" || m[2] === "<&") && /^(\d+|-)/.test(this.s.slice(this.i))) {
      this.i += /^(\d+|-)/.exec(this.s.slice(this.i))![0].length;
      return true;
    }
    if (this.i >= this.s.length || META.has(this.s[this.i]!)) this.fail("redirection without a target");
    this.word();
    return true;
  }

  /** Heredoc bodies start after the newline that ends their command. */
  private readHeredocs(): void {
    for (const h of this.heredocs) {
      for (;;) {
        if (this.i >= this.s.length) this.fail(`heredoc ${h.delim} is not closed`);
        const nl = this.s.indexOf("\n", this.i);
        const line = this.s.slice(this.i, nl === -1 ? this.s.length : nl);
        this.i = nl === -1 ? this.s.length : nl + 1;
        if ((h.strip ? line.replace(/^\t+/, "") : line) === h.delim) break;
        if (h.expand && /\$\(|`/.test(line))
          this.fail("a heredoc that runs commands ($( ) or backticks) is not supported");
      }
    }
    this.heredocs = [];
  }

  private skipArithmetic(open: number): void {
    this.i += open;
    let depth = 1;
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (c === "(") depth++;
      else if (c === ")") {
        depth--;
        if (depth === 0) {
          if (this.s[this.i + 1] !== ")") this.fail("arithmetic not closed by ))");
          this.i += 2;
          return;
        }
      }
      this.i++;
    }
    this.fail("arithmetic not closed");
  }

  /** One word: quotes removed, substitutions parsed as nested command lists. */
  private word(): ShellWord {
    let text = "";
    let dynamic = false;
    const start = this.i;
    for (;;) {
      if (this.i >= this.s.length) break;
      const c = this.s[this.i]!;
      if (c === " " || c === "\t" || c === "\r" || META.has(c)) {
        if ((c === "<" || c === ">") && this.s[this.i + 1] === "(") {
          this.i += 2;
          this.list(")");
          dynamic = true;
          continue;
        }
        break;
      }
      if (c === "`") {
        if (this.backticks > 0) break;
        this.backtick();
        dynamic = true;
      } else if (c === "'") {
        const close = this.s.indexOf("'", this.i + 1);
        if (close === -1) this.fail("unclosed single quote");
        text += this.s.slice(this.i + 1, close);
        this.i = close + 1;
      } else if (c === '"') {
        this.i++;
        const r = this.doubleQuoted();
        text += r.text;
        dynamic ||= r.dynamic;
      } else if (c === "\\") {
        if (this.i + 1 >= this.s.length) this.fail("trailing backslash");
        if (this.backticks > 0 && this.s[this.i + 1] === "`") this.fail("nested backticks are not supported");
        if (this.s[this.i + 1] !== "\n") text += this.s[this.i + 1];
        this.i += 2;
      } else if (c === "$") {
        const r = this.dollar(false);
        text += r.text;
        dynamic ||= r.dynamic;
      } else {
        if (c === "*" || c === "?" || (c === "[" && this.closesBracket())) dynamic = true;
        if (c === "{" && /^\{[^\s{}]*(,|\.\.)[^\s{}]*\}/.test(this.s.slice(this.i))) dynamic = true;
        text += c;
        this.i++;
      }
    }
    if (this.i === start) this.fail(`unexpected ${JSON.stringify(this.s[this.i])}`);
    return { text, dynamic };
  }

  /** A `[` starts a glob class only when a `]` closes it within the word (`[ -d x ]` is the test command). */
  private closesBracket(): boolean {
    return /[\]\s;&|<>()]/.exec(this.s.slice(this.i + 1))?.[0] === "]";
  }

  private backtick(): void {
    this.i++;
    this.backticks++;
    this.list("`");
    this.backticks--;
  }

  private doubleQuoted(): ShellWord {
    let text = "";
    let dynamic = false;
    for (;;) {
      if (this.i >= this.s.length) this.fail("unclosed double quote");
      const c = this.s[this.i]!;
      if (c === '"') {
        this.i++;
        return { text, dynamic };
      }
      if (c === "\\" && /[$`"\\\n]/.test(this.s[this.i + 1] ?? "")) {
        if (this.s[this.i + 1] !== "\n") text += this.s[this.i + 1];
        this.i += 2;
      } else if (c === "`") {
        if (this.backticks > 0) this.fail("backticks nested in a double-quoted backtick substitution");
        this.backtick();
        dynamic = true;
      } else if (c === "$") {
        const r = this.dollar(true);
        text += r.text;
        dynamic ||= r.dynamic;
      } else {
        text += c;
        this.i++;
      }
    }
  }

  /** $name, ${…}, $( … ), $(( … )), $'…', $"…", or a lone $. */
  private dollar(quoted: boolean): ShellWord {
    const rest = this.s.slice(this.i);
    if (rest.startsWith("$((")) {
      const at = this.i;
      this.skipArithmetic(3);
      return { text: this.s.slice(at, this.i), dynamic: true };
    }
    if (rest.startsWith("$(")) {
      this.i += 2;
      this.list(")");
      return { text: "$(…)", dynamic: true };
    }
    if (rest.startsWith("${")) {
      let depth = 0;
      const at = this.i;
      for (this.i += 1; this.i < this.s.length; this.i++) {
        const c = this.s[this.i];
        if (c === "{") depth++;
        else if (c === "}" && --depth === 0) break;
      }
      if (this.i >= this.s.length) this.fail("unclosed ${");
      this.i++;
      return { text: this.s.slice(at, this.i), dynamic: true };
    }
    if (!quoted && rest.startsWith("$'")) {
      this.i += 2;
      let text = "";
      for (;;) {
        if (this.i >= this.s.length) this.fail("unclosed $'");
        const c = this.s[this.i]!;
        if (c === "'") {
          this.i++;
          return { text, dynamic: false };
        }
        if (c === "\\") {
          const e = /^\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/s.exec(this.s.slice(this.i))![1]!;
          this.i += 1 + e.length;
          const simple: Record<string, string> = {
            n: "\n",
            t: "\t",
            r: "\r",
            "\\": "\\",
            "'": "'",
            '"': '"',
            a: "\x07",
            e: "\x1b",
            0: "\0",
          };
          if (e[0] === "x") text += String.fromCharCode(parseInt(e.slice(1), 16));
          else if (/^[0-7]+$/.test(e)) text += String.fromCharCode(parseInt(e, 8));
          else text += simple[e] ?? e;
        } else {
          text += c;
          this.i++;
        }
      }
    }
    if (!quoted && rest.startsWith('$"')) {
      this.i += 2;
      return this.doubleQuoted();
    }
    const m = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(rest);
    if (m) {
      this.i += m[0].length;
      return { text: m[0], dynamic: true };
    }
    this.i++;
    return { text: "$", dynamic: false };
  }
}
