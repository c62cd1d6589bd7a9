export { CALLBACK_PATH, LoopbackReceiver, SignInAbandoned } from './loopbackReceiver';
export { OAuthSession } from './oauthSession';
export { SharedRefreshLock, type RefreshLock } from './refreshLock';
export { refreshingFetch } from './refreshingFetch';
export { MemorySecretStore, type SecretStore } from './secretStore';
export { clientSecretKey, credentialsKey, forgetCredentials, readCredentials, serverUrlOfKey, tokenFresh, updateCredentials, writeCredentials, type ServerCredentials } from './serverCredentials';
export { type SignInBrowser, type SignInEnvironment, type SignInReason } from './signInBrowser';
export { MissingClientSecret, SignInDeclined, SignInRequired } from './signInErrors';
export { describeSignInFailure } from './signInFailures';
