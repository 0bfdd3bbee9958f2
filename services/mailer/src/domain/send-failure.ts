/** What to do with a failed send. */
export type FailureKind = 'temporary' | 'permanent';

export interface ClassifiedFailure {
  kind: FailureKind;
  /** One line for the dead letter / log: code, SMTP reply. */
  reason: string;
}

const temporaryCodes = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EABORT', // our own send timeout
  'EPROTOCOL',
  'ETLS',
]);

interface MailError {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
  message?: string;
}

/**
 * SMTP semantics (RFC 5321): a 4yz reply is transient, a 5yz reply is permanent for THIS message (recipient or
 * sender rejected, message refused) — except 503 (bad command sequence, a session problem) and failures of the
 * login itself (535 etc. are our configuration, not the message's fault: retried until the operator fixes it or
 * the attempts run out). Connection problems and timeouts are transient. Anything unknown is retried (bounded by
 * the maximum attempts), never dropped.
 */
export function classifySendFailure(err: unknown): ClassifiedFailure {
  const e = (err ?? {}) as MailError;
  const code = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const parts = [e.code, code !== undefined ? String(code) : undefined, e.response ?? e.message].filter(Boolean);
  const reason = parts.join(' ').replace(/\s+/g, ' ').trim().slice(0, 500) || 'unknown send failure';
  const auth = e.code === 'EAUTH' || e.code === 'ENOAUTH' || (e.command ?? '').toUpperCase().startsWith('AUTH');
  if (code !== undefined && code >= 500 && code < 600 && code !== 503 && !auth) return { kind: 'permanent', reason };
  if (code !== undefined && code >= 400 && code < 500) return { kind: 'temporary', reason };
  if (e.code && temporaryCodes.has(e.code)) return { kind: 'temporary', reason };
  if (e.code === 'EENVELOPE' || e.code === 'EMESSAGE') {
    // an envelope/message refusal without a reply code (e.g. no valid recipient at all): the same message fails again
    return code === undefined ? { kind: 'permanent', reason } : { kind: 'temporary', reason };
  }
  return { kind: 'temporary', reason };
}
