import { createServer } from 'node:net';

/**
 * A free TCP port on 127.0.0.1, for `{port}` in a target's command and URL: the OS picks it, the
 * probe closes it, the server binds it next. Another process could take it in between; a server
 * that then fails to bind exits at once, which the start reports.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** `value` with every `{port}` replaced by `port`. */
export const fillPort = (value: string, port: number): string => value.replaceAll('{port}', String(port));
