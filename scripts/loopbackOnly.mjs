/**
 * `node --import ./scripts/loopbackOnly.mjs server.js`: every server socket the program opens
 * listens on 127.0.0.1, whatever host it asks for. mcp-sim's rule is that a server it starts
 * listens on loopback only; @modelcontextprotocol/server-everything takes only PORT and would
 * listen on every interface.
 */
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [first] = args;
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    const callback = args.find((a) => typeof a === 'function');
    return listen.call(this, Number(first), '127.0.0.1', ...(callback ? [callback] : []));
  }
  if (first && typeof first === 'object' && !Array.isArray(first) && first.path === undefined) {
    return listen.call(this, { ...first, host: '127.0.0.1' }, ...args.slice(1));
  }
  return listen.apply(this, args);
};
