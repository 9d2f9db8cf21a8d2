/** Who is calling, as established by the authentication step of a transport. */
export interface KeyPrincipal {
  kind: 'secret' | 'public';
  keyId: string;
  accountId: string;
  environmentId: string;
}

/** The verified claims of an end-user session token. */
export interface SessionClaims {
  jti: string;
  endUserId: string;
  accountId: string;
  environmentId: string;
  templateId: string | null;
  endUserEmail: string | null;
  endUserIp: string | null;
  metadata: Record<string, unknown>;
  expiresAt: string;
}

/** The caller of a service: a Secret Key, or a Public Key (from an allowed origin) with an optional session. */
export interface Caller {
  principal: KeyPrincipal;
  origin?: string;
  session?: SessionClaims;
}
