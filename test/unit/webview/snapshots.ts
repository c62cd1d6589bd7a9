import type { ChatSnapshot } from '../../../src/protocol';

/** A chat between turns with nothing pending and nothing to complete; tests set only what they look at. */
export function idleSnapshot(overrides: Partial<ChatSnapshot> = {}): ChatSnapshot {
  return {
    conversation: { id: 'c', title: 't' },
    items: [],
    model: 'm',
    busy: false,
    liveUsage: null,
    apiKeySet: true,
    conversations: [],
    pendingApprovals: [],
    pendingElicitations: [],
    toolCompletions: [],
    promptCompletions: [],
    resourceCompletions: [],
    attachments: [],
    ...overrides,
  };
}
