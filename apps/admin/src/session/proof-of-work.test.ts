import { createHash, randomBytes } from 'node:crypto';
import { leadingZeroBits, sha256Words, solveChallenge } from './proof-of-work';

const hex = (w: Uint32Array) => [...w].map((x) => (x >>> 0).toString(16).padStart(8, '0')).join('');

it('hashes like node’s SHA-256 for every length around the block boundaries and random inputs', () => {
  for (let len = 0; len < 200; len++) {
    const b = randomBytes(len);
    expect(hex(sha256Words(b))).toBe(createHash('sha256').update(b).digest('hex'));
  }
});

it('finds a nonce the server would accept (leading zero bits of SHA-256 of "<challenge>:<nonce>")', async () => {
  const challenge = 'abc.123.10.mac';
  const solution = await solveChallenge(challenge, 10);
  const digest = createHash('sha256').update(solution).digest();
  expect(solution.startsWith(`${challenge}:`)).toBe(true);
  expect(digest[0]).toBe(0);
  expect(digest[1]! >> 6).toBe(0);
  expect(leadingZeroBits(new Uint32Array([0, 0x0fffffff]))).toBe(36);
});
