export { describeStartFailure, DORMANT_REASON, exitReason, goneAfterStartText, IDLE_REASON, SIGNED_OUT_REASON, StartupTimeout, untrustedReason, wakeFailureText } from './failureReasons';
export { listingOf, newEntry, toStatus, type ServerEntry } from './serverEntry';
export { type ServerState, type ServerStatus } from './serverStatus';
export { StartQueue } from './startQueue';
