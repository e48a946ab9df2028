// `animconv batch` on stderr as cli/batch_command.cpp prints it, with the texts the C++ code
// makes for both CLIs (pipeline/batch_text.cpp): one line per file when stderr is not a terminal
// (logs, CI), one status line rewritten in place on a terminal; -q: only the failures.
export async function printBatch(session, request) {
  const {logger} = session;
  const quiet = logger.level === 'error';
  // Per-file info lines would bury the warnings; -v still shows them (as natively).
  if (logger.level === 'info') logger.level = 'warning';
  const terminal = process.stderr.isTTY === true;
  session.onProgress = (result) => {
    // A file's diagnostics come first, each naming the file.
    if (terminal && result.diagnostics.some((d) => logger.shows(d.severity))) {
      process.stderr.write('\r\x1b[K');
    }
    logger.printEscapedDiagnostics(result.diagnostics, result.input);
    if (quiet) return;
    if (!terminal) {
      process.stderr.write(result.file_line);
      return;
    }
    if (result.failed_line) process.stderr.write('\r\x1b[K' + result.failed_line);
    process.stderr.write('\r\x1b[K' + result.status_line);
  };
  const reply = await session.run({...request, for_terminal: true});
  if (terminal && !quiet) process.stderr.write('\r\x1b[K');
  if (!reply.ok) {
    await logger.printDiagnostics(session, reply.diagnostics);
    await logger.print(session, 'error', [reply.error.text], {escaped: true});
    return reply.error.exit_code;
  }
  const {problems, summary, exit_code: exitCode} = reply.result;
  process.stderr.write(problems);
  if (!quiet) process.stderr.write(summary);
  return exitCode;
}
