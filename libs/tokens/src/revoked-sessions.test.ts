import { REVOKED_SESSIONS_BUCKET } from '@vellum/contracts';
import { fakeKeyValueSource } from './key-value-source.fake';
import { watchRevokedSessions } from './revoked-sessions';

describe('watchRevokedSessions', () => {
  it('mirrors the bucket: initial values, then additions and deletions; stop ends the watch', async () => {
    const kv = fakeKeyValueSource();
    kv.put(REVOKED_SESSIONS_BUCKET, 'old', { revoked_at: 'x' });
    const revoked = await watchRevokedSessions(kv.source);
    expect(revoked.isRevoked('old')).toBe(true);
    expect(revoked.isRevoked('s1')).toBe(false);
    kv.put(REVOKED_SESSIONS_BUCKET, 's1', { revoked_at: 'y' });
    expect(revoked.isRevoked('s1')).toBe(true);
    const { isRevoked } = revoked; // passed around unbound as isSessionRevoked
    expect(isRevoked('s1')).toBe(true);
    kv.put(REVOKED_SESSIONS_BUCKET, 'old', undefined); // expired from the map
    expect(revoked.isRevoked('old')).toBe(false);
    expect(revoked.size).toBe(1);
    await revoked.stop();
    expect(kv.watchers(REVOKED_SESSIONS_BUCKET)).toBe(0);
    kv.put(REVOKED_SESSIONS_BUCKET, 's2', {});
    expect(revoked.isRevoked('s2')).toBe(false);
  });
});
