export { originAllowedByAnyKey } from './any-key-origin';
export { callerStillAccepted } from './still-accepted';
export { acceptKey, authenticateKey, presentedKeyHash, requireAllowedOrigin, requireKeyKind, type AuthenticatedKey, type PresentedKeyHash } from './authenticate-key';
export { publicKeyClient } from './client-bucket';
export { countKeyRequest, type RateLimitState } from './count-key-request';
export { currentSigningKey, rotateSessionSecret, verificationSecret } from './session-signing-keys';
export type { Caller, KeyPrincipal, SessionClaims } from './principal';
export { loadSessionSecret } from './session-secret';
export { verifySession } from './verify-session';
