import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK's resumability store, in memory, with deterministic event ids (`e1`, `e2`, …, one
 * counter per store): the id says nothing about time or chance, so traces replay byte for byte.
 * Replays every later event of the same stream, in store order.
 */
export class SimEventStore implements EventStore {
  private readonly events: { id: string; streamId: string; message: JSONRPCMessage }[] = [];

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `e${this.events.length + 1}`;
    this.events.push({ id, streamId, message });
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((e) => e.id === eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    if (at < 0) return '';
    const streamId = this.events[at]!.streamId;
    for (const e of this.events.slice(at + 1)) {
      // Priming events are stored as `{}`: they carry no message to replay.
      if (e.streamId === streamId && Object.keys(e.message).length > 0) await send(e.id, e.message);
    }
    return streamId;
  }
}
