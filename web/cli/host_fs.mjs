// The real file system inside the module (emscripten's NODEFS), for the npm CLI: each top-level
// folder of the host is mounted at the same path, and the module's working folder is the
// process's, so a path means what it means to the native CLI, in messages too ("walk.csv:2:7").
// The C++ code then reads inputs and writes outputs itself, atomically (temporary + rename), as
// natively. On Windows the current drive is mounted at /<letter> and paths are translated.
import fs from 'node:fs';
import path from 'node:path';

// Kernel and device trees are not files to convert; the module's own /dev (its stdin, stdout,
// random source) stays.
const SKIPPED = new Set(['dev', 'proc', 'sys']);

function mountAt(FS, hostFolder, modulePath) {
  if (!FS.analyzePath(modulePath).exists) FS.mkdirTree(modulePath);
  FS.mount(FS.filesystems.NODEFS, {root: hostFolder}, modulePath);
}

// A path of the host as the module sees it: itself on POSIX; on Windows "C:\\x\\y" is "/c/x/y"
// and "a\\b" is "a/b".
export function modulePath(hostPath, cwd) {
  if (process.platform !== 'win32') return hostPath;
  if (!path.win32.isAbsolute(hostPath)) return hostPath.replaceAll('\\', '/');
  const resolved = path.win32.resolve(cwd, hostPath);
  const drive = path.win32.parse(resolved).root;
  return '/' + drive[0].toLowerCase() + '/' + resolved.slice(drive.length).replaceAll('\\', '/');
}

// Mounts the host and changes into the process's folder.
export function mountHost(FS, cwd) {
  if (process.platform === 'win32') {
    // Only the current drive: a path on another drive is not found (docs/web.md).
    const drive = path.win32.parse(cwd).root;  // "C:\\"
    mountAt(FS, drive, '/' + drive[0].toLowerCase());
    FS.chdir(modulePath(cwd, cwd));
    return;
  }
  for (const entry of fs.readdirSync('/')) {
    if (SKIPPED.has(entry)) continue;
    let isFolder = false;
    try {
      isFolder = fs.statSync('/' + entry).isDirectory();
    } catch {
      continue;  // a dangling link or a folder we may not look into
    }
    if (isFolder) mountAt(FS, '/' + entry, '/' + entry);
  }
  FS.chdir(cwd);
}
