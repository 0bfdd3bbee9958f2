import { assertName } from './subject-match';

/**
 * Maps logical names onto one NATS account shared with others: `prefix` is prepended to stream and bucket names
 * as is, and to subjects as a first token (trailing separators trimmed: prefix 't1_' → subjects 't1.mail.send').
 */
export class NatsNames {
  private readonly subjectPrefix: string;

  constructor(private readonly prefix = '') {
    if (prefix !== '' && !/^[A-Za-z0-9_-]+$/.test(prefix)) throw new Error(`invalid prefix "${prefix}" (use [A-Za-z0-9_-])`);
    const token = prefix.replace(/[^A-Za-z0-9]+$/, '');
    this.subjectPrefix = token ? `${token}.` : '';
  }

  name(kind: string, name: string): string {
    assertName(kind, name);
    return `${this.prefix}${name}`;
  }

  subject(subject: string): string {
    return `${this.subjectPrefix}${subject}`;
  }

  /** The logical subject of a stored message. */
  strip(subject: string): string {
    return this.subjectPrefix && subject.startsWith(this.subjectPrefix) ? subject.slice(this.subjectPrefix.length) : subject;
  }

  /** Whether a stream or bucket name belongs to this prefix (used to clean up after tests). */
  owns(streamName: string): boolean {
    return this.prefix !== '' && (streamName.startsWith(this.prefix) || streamName.startsWith(`KV_${this.prefix}`));
  }
}
