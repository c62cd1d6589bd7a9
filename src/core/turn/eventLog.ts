import type { StreamEvent } from '../stream/events';

/** The part of a Conversation the turn loop needs: read the stream, append to it. */
export interface EventLog {
  events(): readonly StreamEvent[];
  append(...events: StreamEvent[]): Promise<void>;
}
