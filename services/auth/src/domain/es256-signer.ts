import { sign, type KeyObject } from 'node:crypto';

type SigningKey = { privateKey: KeyObject; kid: string };

/**
 * ES256 JWS in compact form with the header `{"alg":"ES256","typ":"JWT","kid":…}`: the bytes jsonwebtoken's sign
 * gives for the same payload (the signature aside: ECDSA is randomised), without its per-call work — option
 * validation, the key-type checks, the header object and jws's stream objects. The caller builds the whole payload
 * (iss included).
 */
export function es256Signer({ privateKey, kid }: SigningKey): (payload: object) => string {
  const header = `${Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid })).toString('base64url')}.`;
  return (payload) => {
    const input = header + Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
  };
}

const signers = new WeakMap<SigningKey, (payload: object) => string>();

/** `payload` signed with `key` (its header encoded once per key). */
export function es256Sign(key: SigningKey, payload: object): string {
  let signer = signers.get(key);
  if (!signer) signers.set(key, (signer = es256Signer(key)));
  return signer(payload);
}
