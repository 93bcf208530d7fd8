import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Starts the compiled server (`node …/main.js`) as a child process and waits until it logs
 * the URL it listens on. Used by the crash test and by scripts/bench-api.ts, which both need
 * a real process they can kill.
 */
export interface SpawnedServer {
  readonly url: string;
  readonly child: ChildProcess;
  /** Settles when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last lines the process printed (stdout and stderr), for failure messages. */
  recentOutput(): string;
}

export interface SpawnServerOptions {
  mainPath: string;
  /**
   * Added to the parent's environment. Defaults: PORT 0 (any free port), HOST 127.0.0.1 and
   * PTAX_LOG_LEVEL info, the level at which the server announces its URL.
   */
  env?: Record<string, string>;
  cwd?: string;
  startTimeoutMs?: number;
}

const KEPT_LINES = 50;

export function spawnServer(options: SpawnServerOptions): Promise<SpawnedServer> {
  const child = spawn(process.execPath, [options.mainPath], {
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PTAX_LOG_LEVEL: 'info', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const remember = (line: string) => {
    lines.push(line);
    if (lines.length > KEPT_LINES) lines.shift();
  };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const recentOutput = () => lines.join('\n');
  // Both pipes are read to the end: a full pipe would block the server's logging.
  createInterface({ input: child.stderr! }).on('line', remember);
  const stdout = createInterface({ input: child.stdout! });

  return new Promise<SpawnedServer>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${options.startTimeoutMs ?? 10_000} ms:\n${recentOutput()}`));
    }, options.startTimeoutMs ?? 10_000);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening (code ${code}, signal ${signal}):\n${recentOutput()}`));
    });
    stdout.on('line', (line) => {
      remember(line);
      const url = listeningUrl(line);
      if (url !== undefined) {
        clearTimeout(timer);
        resolve({ url, child, exited, recentOutput });
      }
    });
  });
}

/** main.ts logs `{"url": "http://…", "msg": "ptax server listening on …"}` once it listens. */
function listeningUrl(line: string): string | undefined {
  try {
    const entry = JSON.parse(line) as { url?: unknown; msg?: unknown };
    const isListening = typeof entry.msg === 'string' && entry.msg.startsWith('ptax server listening');
    return isListening && typeof entry.url === 'string' ? entry.url : undefined;
  } catch {
    return undefined;
  }
}
