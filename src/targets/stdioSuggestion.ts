import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';

/**
 * How a server file that is not a module (`check server.py`, `check main.go`, `check ./server`) is
 * checked: as the stdio process its author starts, `check -- <that command>`. The command is the
 * one that language's users type (`go run .` in the module's folder, `cargo run` in the crate's,
 * the venv's own Python where there is one next to the file), so the one line it goes in can be
 * pasted as it is. Undefined: no idea how that file runs (not a server file we know).
 */
export function stdioSuggestion(argument: string, cwd: string = process.cwd()): string | undefined {
  const file = resolve(cwd, argument);
  const dir = dirname(argument);
  const ext = extname(argument).toLowerCase();
  const inDir = (command: string, folder: string) => (folder === '.' || folder === '' ? `-- ${command}` : `--cwd ${folder} -- ${command}`);
  switch (ext) {
    case '.py': {
      const venv = ['.venv', 'venv'].map((v) => join(dir, v, 'bin', 'python')).find((p) => existsSync(resolve(cwd, p)));
      return `-- ${venv ?? 'python'} ${argument}${venv ? '' : " (or your venv's python: -- .venv/bin/python " + argument + ')'}`;
    }
    case '.go':
      return inDir('go run .', dir);
    case '.rs': {
      const crate = ancestorWith(cwd, dir, 'Cargo.toml');
      return inDir('cargo run --quiet', crate ?? dir);
    }
    case '.java':
      return `-- java -jar <your jar> (after mvn package; a single-file server without dependencies: -- java ${argument})`;
    case '.jar':
      return `-- java -jar ${argument}`;
    case '.rb':
      return `-- ruby ${argument}`;
    case '.php':
      return `-- php ${argument}`;
    case '.pl':
      return `-- perl ${argument}`;
    case '.sh':
      return `-- sh ${argument}`;
    case '':
      // A binary (a Go or Rust build, a script with a shebang): run as it is.
      return isExecutableFile(file) ? `-- ${argument.includes('/') ? argument : `./${argument}`}` : undefined;
    default:
      return undefined;
  }
}

/** The nearest folder from `dir` up (to the file system's root) that holds `name`, relative to `cwd`. */
function ancestorWith(cwd: string, dir: string, name: string): string | undefined {
  for (let d = resolve(cwd, dir); ; d = dirname(d)) {
    if (existsSync(join(d, name))) return relative(cwd, d) || '.';
    if (dirname(d) === d) return undefined;
  }
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
