// The HTML report's inline stylesheet and its one script, kept apart from the markup (report-html.ts). The script
// only opens things: the cell or trial a URL fragment (#cell-SK1-scripted~3agood, #SK1-scripted~3agood-2) names, with every <details> around it, on load
// and whenever the fragment changes (a click on a matrix cell); plus "open all / close all" buttons per cell. It reads
// nothing from the transcripts. Its sha256 goes into the page's Content-Security-Policy, which allows no other script.
// Owns: HTML_CSS, HTML_SCRIPT.

export const HTML_CSS = `
:root { --fg:#1b1f24; --muted:#57606a; --line:#d0d7de; --bg:#fff; --soft:#f6f8fa; --pass:#1a7f37; --fail:#cf222e; --inc:#9a6700; --err:#8250df; }
@media (prefers-color-scheme: dark) { :root { --fg:#e6edf3; --muted:#9198a1; --line:#3d444d; --bg:#0d1117; --soft:#151b23; } }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; padding: 1rem 1.5rem 4rem; max-width: 1600px; }
h1 { font-size: 1.5rem; margin: .2rem 0 .5rem; } h2 { font-size: 1.15rem; margin: 1.6rem 0 .5rem; border-bottom: 1px solid var(--line); }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0; max-height: 32rem; overflow: auto; }
.small { font-size: 12px; color: var(--muted); }
.note { background: var(--soft); border-left: 4px solid var(--inc); padding: .3rem .6rem; margin: .3rem 0; }
.warn { background: var(--soft); border-left: 4px solid var(--fail); padding: .3rem .6rem; margin: .3rem 0; font-weight: 600; }
.tag { font-size: 11px; border: 1px solid var(--line); border-radius: 8px; padding: 0 .4rem; color: var(--muted); font-weight: normal; }
table { border-collapse: collapse; }
.matrix th, .matrix td, .models th, .models td { border: 1px solid var(--line); padding: .35rem .5rem; vertical-align: top; text-align: left; }
.matrix thead th { background: var(--soft); font-weight: 600; overflow-wrap: anywhere; max-width: 16rem; }
.matrix th[scope=row] { white-space: nowrap; background: var(--soft); }
.matrix .title { font-weight: normal; color: var(--muted); font-size: 12px; }
.matrix td.cell { min-width: 12rem; }
.matrix td.cell a { color: inherit; text-decoration: none; display: block; }
.matrix td.cell:hover { background: var(--soft); outline: 2px solid var(--line); }
.matrix td.empty { color: var(--muted); text-align: center; }
.frac { font-size: 1.05rem; }
.bar { position: relative; height: 12px; background: var(--line); border-radius: 3px; margin: .25rem 0; overflow: visible; }
.bar.none { background: repeating-linear-gradient(45deg, var(--line), var(--line) 4px, var(--bg) 4px, var(--bg) 8px); }
.bar .fill { position: absolute; left: 0; top: 0; bottom: 0; border-radius: 3px 0 0 3px; }
.bar .ci { position: absolute; top: 5px; height: 2px; background: var(--fg); }
.bar .ci::before, .bar .ci::after { content: ""; position: absolute; top: -4px; width: 2px; height: 10px; background: var(--fg); }
.bar .ci::before { left: -1px; } .bar .ci::after { right: -1px; }
.ks, .cost { font-size: 12px; } .cost { color: var(--muted); }
.errors { color: var(--err); font-weight: 600; } .inconclusive { color: var(--inc); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0 .8rem; margin: .2rem 0; }
.facts dt { color: var(--muted); } .facts dd { margin: 0; overflow-wrap: anywhere; }
details { margin: .3rem 0; } summary { cursor: pointer; }
.cellsec { border: 1px solid var(--line); border-radius: 6px; padding: .3rem .7rem; }
.cellsec > summary { font-size: 1rem; }
.trial { border-left: 3px solid var(--line); padding-left: .7rem; margin-left: .3rem; }
.trial > summary { overflow-wrap: anywhere; }
.o { font-weight: 700; text-transform: uppercase; font-size: 11px; letter-spacing: .03em; }
.o.pass { color: var(--pass); } .o.fail { color: var(--fail); } .o.inconclusive { color: var(--inc); } .o.error { color: var(--err); }
.judge { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: .4rem .7rem; margin: .4rem 0; }
.judge .reason { font-weight: 600; margin: .2rem 0; overflow-wrap: anywhere; }
.evidence ul { margin: .2rem 0; padding-left: 1.2rem; } .evidence li { overflow-wrap: anywhere; white-space: pre-wrap; }
.conv { display: flex; flex-direction: column; gap: .35rem; margin: .4rem 0 1rem; }
.msg { border: 1px solid var(--line); border-radius: 6px; padding: .3rem .6rem; }
.msg .who, .call .who { font-size: 11px; color: var(--muted); text-transform: none; }
.msg.user { border-left: 4px solid #0969da; } .msg.assistant { border-left: 4px solid var(--pass); }
.msg.tool { border-left: 4px solid var(--muted); background: var(--soft); } .msg.tool.iserr { border-left-color: var(--fail); }
.msg.end { border-left: 4px solid var(--err); } .msg .err, .msg p.err { color: var(--fail); }
.msg.notice { border-left: 4px solid var(--inc); } .served { margin: 0 0 .2rem; font-weight: 600; }
.call { border-top: 1px dashed var(--line); margin-top: .3rem; padding-top: .2rem; }
.empty { color: var(--muted); font-style: italic; }
.reasons { margin: .3rem 0; }
.tools { margin: .3rem 0; } .tools button { font: inherit; font-size: 12px; margin-right: .4rem; }
`;

export const HTML_SCRIPT = `
(function () {
  function openTo(id) {
    var el = id ? document.getElementById(id) : null;
    if (!el) return;
    for (var x = el; x; x = x.parentElement) if (x.tagName === "DETAILS") x.open = true;
    el.scrollIntoView({ block: "start" });
  }
  function fromHash() {
    var id = "";
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (err) { id = ""; }
    openTo(id);
  }
  var cells = document.querySelectorAll("details.cellsec");
  for (var i = 0; i < cells.length; i++) {
    var bar = document.createElement("div");
    bar.className = "tools";
    [["open all trials", true], ["close all trials", false]].forEach(function (b) {
      var btn = document.createElement("button");
      btn.type = "button";
      btn.textContent = b[0];
      btn.addEventListener("click", function () {
        var ts = this.parentElement.parentElement.querySelectorAll("details.trial");
        for (var j = 0; j < ts.length; j++) ts[j].open = b[1];
      });
      bar.appendChild(btn);
    });
    cells[i].insertBefore(bar, cells[i].children[1] || null);
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
  document.documentElement.setAttribute("data-ready", "1");
})();
`;
