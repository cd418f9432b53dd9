import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isNotificationFrame } from '../util/jsonrpc.ts';
import { TransportWrapper } from './TransportWrapper.ts';

/**
 * Deliberately broken endpoint wrappers: fixtures that prove the model's rules fire on a rogue
 * run's trace. Each wraps the SDK endpoint's transport (pass one as `RogueRunOptions.wrap`) and
 * misbehaves on purpose.
 * @internal
 */

/** Passes everything through: the correct counterpart of every fixture below. */
export const passThrough = (t: Transport): Transport => new TransportWrapper(t);

/** Answers every incoming notification with an error response (id null), as a sloppy JSON-RPC layer might. */
export const replyToNotifications = (t: Transport): Transport =>
  new (class extends TransportWrapper {
    protected override receive(frame: unknown): void {
      super.receive(frame);
      if (isNotificationFrame(frame)) {
        void this.send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `not a request: ${frame.method}` } } as unknown as JSONRPCMessage);
      }
    }
  })(t);

/** Closes the connection when a cancellation arrives, so the follow-up request can never be answered. */
export const closeOnCancel = (t: Transport): Transport =>
  new (class extends TransportWrapper {
    protected override receive(frame: unknown): void {
      if (isNotificationFrame(frame) && frame.method === 'notifications/cancelled') {
        void this.close();
        return;
      }
      super.receive(frame);
    }
  })(t);

/** Leaves a rejected promise unhandled for every incoming notification: an escape. */
export const rejectOnNotification = (t: Transport): Transport =>
  new (class extends TransportWrapper {
    protected override receive(frame: unknown): void {
      super.receive(frame);
      if (isNotificationFrame(frame)) void Promise.reject(new Error(`wrapper bug on ${frame.method}`));
    }
  })(t);
