// Messages on stderr as the native CLI prints them (cli/main.cpp, spdlog's pattern
// "animconv: %^%l%$: %*"): "animconv: LEVEL: TEXT", the level coloured on a terminal, every text
// escaped for the terminal by the C++ code (EscapeForTerminal), -v/-q as natively.
const RANK = {debug: 0, info: 1, warning: 2, error: 3};
// spdlog's colours of its level names.
const COLOUR = {
  debug: '\x1b[36m', info: '\x1b[32m', warning: '\x1b[33m\x1b[1m', error: '\x1b[31m\x1b[1m',
};

export class Logger {
  constructor() {
    this.level = 'info';  // -v: debug, -q: error
    this.colour = process.stderr.isTTY === true;
  }

  shows(severity) {
    return RANK[severity] >= RANK[this.level];
  }

  format(severity, text) {
    const name = this.colour ? `${COLOUR[severity]}${severity}\x1b[m` : severity;
    return `animconv: ${name}: ${text}\n`;
  }

  // `texts` not yet escaped unless `escaped` (an error's text is escaped by the C++ side).
  async print(session, severity, texts, {escaped = false} = {}) {
    const shown = texts.filter(() => this.shows(severity));
    if (shown.length === 0) return;
    const safe = escaped ? shown : await session.escape(shown);
    process.stderr.write(safe.map((text) => this.format(severity, text)).join(''));
  }

  // [{severity, text}] as the library reports them; `file` prefixes each (batch).
  async printDiagnostics(session, diagnostics, file = '') {
    const shown = diagnostics.filter((d) => this.shows(d.severity));
    if (shown.length === 0) return;
    const texts = await session.escape(shown.map((d) => (file ? `${file}: ${d.text}` : d.text)));
    process.stderr.write(shown.map((d, i) => this.format(d.severity, texts[i])).join(''));
  }

  // The same for texts the module escaped already (a batch's results, for_terminal).
  printEscapedDiagnostics(diagnostics, file = '') {
    const shown = diagnostics.filter((d) => this.shows(d.severity));
    process.stderr.write(
        shown.map((d) => this.format(d.severity, file ? `${file}: ${d.text}` : d.text)).join(''));
  }
}
